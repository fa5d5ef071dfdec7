# Prints a tile.func of N chained scalar multiplies (argv[1]): .mlir input
# for the --max-operations budget test.
import sys

n = int(sys.argv[1])
print("tile.func @k(%x: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {")
print("  %v0 = tile.load %x : !tile.ptr<f32>")
for i in range(1, n):
    print(f"  %v{i} = arith.mulf %v{i - 1}, %v{i - 1} : f32")
print(f"  tile.store %x, %v{n - 1} : !tile.ptr<f32>")
print("  tile.return")
print("}")
