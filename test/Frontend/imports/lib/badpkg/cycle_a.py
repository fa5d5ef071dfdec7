from .cycle_b import f
