// The subcommands of the knightgym program; each returns the process exit code.
#pragma once

namespace knightgym::cli {

class Args;

int list_command(Args& args);
int bench_command(Args& args);
int perft_command(Args& args);
int perft_bench_command(Args& args);
int search_bench_command(Args& args);
int selfplay_bench_command(Args& args);
int network_check_command(Args& args);
int play_command(Args& args);
int ladder_command(Args& args);
int uci_command(Args& args);
int train_command(Args& args);
int keep_command(Args& args);
int iterate_command(Args& args);
int balance_command(Args& args);
int teach_command(Args& args);
int view_command(Args& args);

}  // namespace knightgym::cli
