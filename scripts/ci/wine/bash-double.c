/* A bash.exe test double for the Wine smoke test: the bash tool must find it on PATH as "bash" through
 * PATHEXT and run it as `bash.exe -c COMMAND`. It answers with one line naming the command, so the
 * test can see that exactly this program ran it. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "-c") == 0) {
    printf("bash.exe test double ran: %s\n", argv[2]);
    return 0;
  }
  fprintf(stderr, "bash.exe test double: expected -c COMMAND\n");
  return 2;
}
