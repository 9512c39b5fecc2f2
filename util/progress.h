// A one-line progress bar with an ETA on a terminal; elsewhere (a log, CI) one line per
// update, so a long run still shows it is alive.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace knightgym {

inline std::string format_duration(double seconds) {
  const long total = static_cast<long>(std::max(0.0, seconds) + 0.5);
  char text[32];
  if (total >= 3600)
    std::snprintf(text, sizeof text, "%ld:%02ld:%02ld", total / 3600, total / 60 % 60, total % 60);
  else
    std::snprintf(text, sizeof text, "%ld:%02ld", total / 60, total % 60);
  return text;
}

class ProgressLine {
 public:
  explicit ProgressLine(std::FILE* out) : out_(out), terminal_(isatty(fileno(out))) {}

  // fraction of the run done (0..1), seconds elapsed, and what to show after the bar.
  void update(double fraction, double elapsed, const std::string& text) {
    fraction = std::clamp(fraction, 0.0, 1.0);
    const double eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0;
    constexpr int kWidth = 24;
    const int filled = static_cast<int>(fraction * kWidth);
    const std::string bar = std::string(filled, '#') + std::string(kWidth - filled, '.');
    std::fprintf(out_, "%s[%s] %3.0f%% %s ETA %s | %s%s", terminal_ ? "\r\033[K" : "", bar.c_str(),
                 100 * fraction, format_duration(elapsed).c_str(), format_duration(eta).c_str(),
                 text.c_str(), terminal_ ? "" : "\n");
    std::fflush(out_);
    dirty_ = terminal_;
  }

  // Ends the bar's line before other output.
  void finish_line() {
    if (dirty_) std::fputc('\n', out_);
    dirty_ = false;
  }

 private:
  std::FILE* out_;
  bool terminal_;
  bool dirty_ = false;
};

}  // namespace knightgym
