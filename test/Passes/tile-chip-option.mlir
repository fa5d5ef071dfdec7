// The passes' chip options take the chips tilec targets and nothing else
// (tilec's --arch checks the same list before any pass runs).
// RUN: not tilec-opt %s --tile-accelerate-dot=chip=sm_70 2>&1 | FileCheck %s --check-prefix=SM70
// RUN: not tilec-opt %s --tile-allocate-shared=chip=banana 2>&1 | FileCheck %s --check-prefix=BANANA
// RUN: not tilec-opt %s --tile-lower-to-simt=chip=sm_75 2>&1 | FileCheck %s --check-prefix=SM75
// RUN: tilec-opt %s --tile-accelerate-dot=chip=sm_80 --tile-allocate-shared=chip=sm_89 --tile-lower-to-simt=chip=sm_90 -o /dev/null
// SM70: error: expected chip sm_80, sm_86, sm_87, sm_88, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_100f, sm_103, sm_103a, sm_103f, sm_110, sm_110a, sm_110f, sm_120, sm_120a, sm_120f, sm_121, sm_121a, sm_121f, found 'sm_70'
// BANANA: error: expected chip sm_80, sm_86, sm_87, sm_88, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_100f, sm_103, sm_103a, sm_103f, sm_110, sm_110a, sm_110f, sm_120, sm_120a, sm_120f, sm_121, sm_121a, sm_121f, found 'banana'
// SM75: error: expected chip sm_80, sm_86, sm_87, sm_88, sm_89, sm_90, sm_90a, sm_100, sm_100a, sm_100f, sm_103, sm_103a, sm_103f, sm_110, sm_110a, sm_110f, sm_120, sm_120a, sm_120f, sm_121, sm_121a, sm_121f, found 'sm_75'

#blocked = #tile.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tile.func @k(%p: !tile.ptr<f32>) attributes {tile.num_warps = 4 : i32} {
  %v = arith.constant dense<1.0> : tensor<128xf32, #blocked>
  %s = tile.splat %p : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>, #blocked>
  tile.store %s, %v : tensor<128x!tile.ptr<f32>, #blocked>
  tile.return
}
