// dejarik: the engine. No arguments: the DEI protocol on stdin/stdout (PROTOCOL.md).
#include "cli.h"
#include "main_stack.h"

int main(int argc, char** argv) {
    dejarik::protocol::reserveMainStack(dejarik::protocol::kMainStackReserve);
    return dejarik::protocol::runCommandLine(argc, argv);
}
