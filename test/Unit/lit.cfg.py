# -*- Python -*-
# The GoogleTest unit tests (every *unittests binary below this folder of
# the build tree), run through lit so that one summary counts them all.
import os

import lit.formats

config.name = "tilec-unit"
config.suffixes = []
config.test_exec_root = config.unit_test_root
config.test_source_root = config.unit_test_root
config.test_format = lit.formats.GoogleTest(".", "unittests")
