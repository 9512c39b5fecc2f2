#include "env/games/knightmate/bitboard.h"

#include <vector>

namespace knightgym::knightmate {
namespace detail {

Magic rook_magics[64];
Magic bishop_magics[64];
Bitboard between_table[64][64];
Bitboard line_table[64][64];

namespace {

constexpr int kRookDirections[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
constexpr int kBishopDirections[4][2] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}};

// Attacks by walking each ray until the edge or the first occupied square.
Bitboard slide(int square, Bitboard occupied, const int (&directions)[4][2]) {
  Bitboard attacks = 0;
  for (const auto& [df, dr] : directions) {
    for (int f = kGrid.file_of(square) + df, r = kGrid.rank_of(square) + dr;
         f >= 0 && f < 8 && r >= 0 && r < 8; f += df, r += dr) {
      attacks |= square_bb(kGrid.square(f, r));
      if (occupied & square_bb(kGrid.square(f, r))) break;
    }
  }
  return attacks;
}

// Stockfish's seeded magic search: deterministic, a few milliseconds at start-up.
class SparseRandom {
 public:
  explicit SparseRandom(uint64_t seed) : state_(seed) {}
  uint64_t sparse() { return next() & next() & next(); }

 private:
  uint64_t next() {
    state_ ^= state_ >> 12, state_ ^= state_ << 25, state_ ^= state_ >> 27;
    return state_ * 2685821657736338717ull;
  }
  uint64_t state_;
};

void init_magics(Magic (&magics)[64], std::vector<Bitboard>& storage,
                 const int (&directions)[4][2]) {
  constexpr uint64_t kSeeds[8] = {728, 10316, 55013, 32803, 12281, 15100, 16645, 255};
  std::vector<Bitboard> occupancy, reference;
  std::vector<int> epoch;
  size_t offset = 0;
  std::vector<size_t> offsets(64);
  for (int square = 0; square < 64; ++square) {
    const Bitboard edges = ((kRank1 | kRank8) & ~rank_bb(kGrid.rank_of(square))) |
                           ((kFileA | kFileH) & ~(kFileA << kGrid.file_of(square)));
    Magic& m = magics[square];
    m.mask = slide(square, 0, directions) & ~edges;
    m.shift = 64 - std::popcount(m.mask);
    offsets[square] = offset;
    offset += size_t{1} << std::popcount(m.mask);
  }
  storage.assign(offset, 0);
  for (int square = 0; square < 64; ++square) {
    Magic& m = magics[square];
    Bitboard* table = storage.data() + offsets[square];
    m.attacks = table;
    // Every subset of the mask (Carry-Rippler) with its true attack set.
    occupancy.clear();
    reference.clear();
    Bitboard subset = 0;
    do {
      occupancy.push_back(subset);
      reference.push_back(slide(square, subset, directions));
      subset = (subset - m.mask) & m.mask;
    } while (subset);
    const size_t size = occupancy.size();
    epoch.assign(size, 0);
    SparseRandom random(kSeeds[kGrid.rank_of(square)]);
    for (int attempt = 1;; ++attempt) {
      do m.magic = random.sparse();
      while (std::popcount((m.magic * m.mask) >> 56) < 6);
      size_t i = 0;
      for (; i < size; ++i) {
        const unsigned index = m.index(occupancy[i]);
        if (epoch[index] < attempt) {
          epoch[index] = attempt;
          table[index] = reference[i];
        } else if (table[index] != reference[i]) {
          break;
        }
      }
      if (i == size) break;
    }
  }
}

std::vector<Bitboard> rook_storage, bishop_storage;

const bool initialized = [] {
  init_magics(rook_magics, rook_storage, kRookDirections);
  init_magics(bishop_magics, bishop_storage, kBishopDirections);
  for (int a = 0; a < 64; ++a)
    for (int b = 0; b < 64; ++b) {
      for (const auto* directions : {&kRookDirections, &kBishopDirections}) {
        if (!(slide(a, 0, *directions) & square_bb(b))) continue;
        line_table[a][b] =
            (slide(a, 0, *directions) & slide(b, 0, *directions)) | square_bb(a) | square_bb(b);
        between_table[a][b] =
            slide(a, square_bb(b), *directions) & slide(b, square_bb(a), *directions);
      }
    }
  return true;
}();

}  // namespace
}  // namespace detail

}  // namespace knightgym::knightmate
