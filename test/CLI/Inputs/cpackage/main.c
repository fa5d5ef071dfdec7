/* Creates a context through the C API (test/CLI/host-app.test). */
#include "tilec/runtime_c.h"
#include <stdio.h>
int main(void) { tilec_context c; if (tilec_context_create(0, &c)) { printf("%s\n", tilec_last_error()); return 77; } return 0; }
