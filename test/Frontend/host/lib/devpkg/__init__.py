from .utils import IS_AMD, IS_HOPPER, NUM_WARPS, device_platform
