// What the programs' children spoken to over pipes share (util/uci_process.h's engines,
// util/python_process.h's PythonChild): starting one with its standard input and output
// on pipes, in a process group of its own; writing to it so that an ended child shows as
// an error rather than ending this process; and saying how one ended.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>

namespace knightgym {

struct PipedChild {
  pid_t pid = -1;
  int to_child = -1;    // its standard input
  int from_child = -1;  // its standard output
};

// Starts `argv` (argv[0] looked up on PATH if it has no '/'; null-terminated) with the
// environment `environment` (null-terminated), its standard input and output on pipes
// that no other child inherits, and in a process group of its own: a terminal's Ctrl-C
// reaches this process, which ends the child in its turn, not the child in the middle of
// an exchange; if this process dies, the child reads the end of its input. Returns 0, or
// the errno of what failed, with nothing left open.
int spawn_piped(char* const argv[], char* const environment[], PipedChild& child);

// Writes all of `bytes` to `fd`, with SIGPIPE blocked in this thread meanwhile (and the
// one a failed write raised taken back), so that a reader that ended shows as EPIPE.
// Returns 0, or the errno of the failed write.
int write_all(int fd, std::string_view bytes);

// "it exited with status N" or "it was killed by signal N", from waitpid's status.
std::string how_it_ended(int status);

}  // namespace knightgym
