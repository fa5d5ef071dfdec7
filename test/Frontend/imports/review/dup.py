import triton

V = 1
