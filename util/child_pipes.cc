#include "util/child_pipes.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

namespace knightgym {

int spawn_piped(char* const argv[], char* const environment[], PipedChild& child) {
  // O_CLOEXEC: the child keeps only the two ends dup2-ed onto its stdin and stdout.
  int in[2] = {-1, -1}, out[2] = {-1, -1};
  int error = pipe2(in, O_CLOEXEC) == 0 && pipe2(out, O_CLOEXEC) == 0 ? 0 : errno;
  pid_t pid = -1;
  if (!error) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    error = posix_spawnp(&pid, argv[0], &actions, &attributes, argv, environment);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
  }
  for (const int fd : {in[0], out[1]})
    if (fd >= 0) close(fd);
  if (error) {
    for (const int fd : {in[1], out[0]})
      if (fd >= 0) close(fd);
    return error;
  }
  child = {pid, in[1], out[0]};
  return 0;
}

int write_all(int fd, std::string_view bytes) {
  sigset_t pipe_signal, saved;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &saved);
  int error = 0;
  for (size_t done = 0; done < bytes.size() && !error;) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n >= 0)
      done += static_cast<size_t>(n);
    else if (errno != EINTR)
      error = errno;
  }
  if (error == EPIPE) {
    const timespec no_wait{};
    sigtimedwait(&pipe_signal, nullptr, &no_wait);
  }
  pthread_sigmask(SIG_SETMASK, &saved, nullptr);
  return error;
}

std::string how_it_ended(int status) {
  return WIFSIGNALED(status) ? "it was killed by signal " + std::to_string(WTERMSIG(status))
                             : "it exited with status " + std::to_string(WEXITSTATUS(status));
}

}  // namespace knightgym
