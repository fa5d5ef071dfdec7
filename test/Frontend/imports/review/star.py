from starsrc import *
