from .device import *  # noqa
