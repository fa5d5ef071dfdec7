//===- tilec-opt.cpp - Run tilec passes on MLIR ----------------*- C++ -*-===//
//
// MlirOptMain over every dialect and pass tilec registers: the tool the lit
// tests drive, and the one to bisect a pipeline with.
//
//===----------------------------------------------------------------------===//
#include "compiler/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  tilec::registerAllDialects(registry);
  tilec::registerAllPasses();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "tilec optimizer driver: tile dialect passes\n", registry));
}
