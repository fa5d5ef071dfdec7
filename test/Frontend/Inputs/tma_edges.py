"""Host-descriptor kernels at the edges of the TMA path (host-descriptors-tma.test)."""
import triton
import triton.language as tl


@triton.jit
def colsum_kernel(src_desc, dst_desc):
    """A stored block made by expand_dims of a reduction: the TMA store's
    value is read before its layout conversion only through elementwise ops."""
    x = src_desc.load([tl.program_id(0) * 64, 0]).to(tl.float32)
    s = tl.sum(x, axis=0)
    dst_desc.store([tl.program_id(0), 0], tl.expand_dims(s, 0).to(dst_desc.dtype))


@triton.jit
def copy_kernel(src_desc, dst_desc):
    """A block copy whose staging buffer (256 KiB for fp32 [256, 256])
    would not fit shared memory: a masked store."""
    x = src_desc.load([tl.program_id(0) * 256, 0])
    dst_desc.store([tl.program_id(0) * 256, 0], x)
