# Names beyond ASCII (unicode-names.test): letters of any script, marks and
# digits after the first character.
import triton
import triton.language as tl


@triton.jit
def k(указатель):
    café = 1.0
    λ2 = 2.0
    変数 = 3.0
    नमस्ते = 4.0
    tl.store(указатель, café + λ2 + 変数 + नमस्ते)
