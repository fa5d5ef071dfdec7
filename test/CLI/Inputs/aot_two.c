/* Two specializations of one kernel, renamed with --aot-name, in one
 * program (test/CLI/aot.test). */
#include "add16.h"
#include "addany.h"
int main(void) { return add16(0, 0, 1, 1, 0, 0, 0, 0) == add_any(0, 0, 1, 1, 0, 0, 0, 0) ? 0 : 1; }
