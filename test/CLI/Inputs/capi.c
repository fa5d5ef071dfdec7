/* A C host program against the installed runtime (install.test): creates a
   context, or reports why it cannot (no GPU here). */
#include "tilec/runtime_c.h"

#include <stdio.h>

int main(void) {
  tilec_context ctx;
  if (tilec_context_create(0, &ctx) != TILEC_OK) {
    printf("no context: %s\n", tilec_last_error());
    return 0;
  }
  tilec_context_destroy(ctx);
  printf("context created\n");
  return 0;
}
