// dejarik: the engine. No arguments: the DEI protocol on stdin/stdout (PROTOCOL.md).
#include "cli.h"

int main(int argc, char** argv) {
    return dejarik::protocol::runCommandLine(argc, argv);
}
