// Single states with OpenSpiel-like names.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bindings/bindings.h"
#include "env/registry/registry.h"

namespace py = pybind11;

namespace knightgym::python {

namespace {

py::array_t<float> observation_tensor(const AnyState& state, std::optional<int> player) {
  const Shape& shape = state.game().info().observation_shape;
  py::array_t<float> out({shape.channels, shape.height, shape.width});
  const int current = state.current_player();
  state.observe(player.value_or(current >= 0 ? current : 0), out.mutable_data());
  return out;
}

py::array_t<bool> legal_actions_mask(const AnyState& state) {
  py::array_t<bool> out(state.game().info().num_actions);
  state.legal_mask(reinterpret_cast<uint8_t*>(out.mutable_data()));
  return out;
}

// Action indices are in the frame of the player to move: another player's actions have
// no names here, as in pyspiel, where only the mover has legal actions.
void check_is_mover(const AnyState& state, int player) {
  if (player != state.current_player())
    throw std::invalid_argument("player " + std::to_string(player) +
                                " is not to move (current_player() is " +
                                std::to_string(state.current_player()) + ")");
}

// The picture as plain Python data, squares by name (env/core/picture.h).
py::dict picture_of(const AnyState& state) {
  const Picture picture = state.picture();
  const Grid& grid = picture.grid;
  py::list cells;
  for (int square = 0; square < grid.size(); ++square) {
    const Cell& cell = picture.cells[square];
    py::list marks;
    for (size_t bit = 0; bit < picture.marks.size(); ++bit)
      if (cell.marks >> bit & 1) marks.append(py::str(std::string(picture.marks[bit].name)));
    py::dict out;
    out["square"] = grid.name(square);
    out["file"] = grid.file_of(square);
    out["rank"] = grid.rank_of(square);
    out["piece"] = cell.piece < 0
                       ? py::object(py::none())
                       : py::object(py::str(std::string(picture.pieces[cell.piece].name)));
    out["owner"] = cell.owner;
    out["count"] = cell.count;
    out["number"] = cell.number >= 0 ? py::object(py::int_(cell.number)) : py::object(py::none());
    out["zone"] = cell.zone;
    out["marks"] = marks;
    cells.append(out);
  }
  py::list links;
  for (const auto& [from, to, side] : picture.links)
    links.append(py::make_tuple(grid.name(from), grid.name(to), side));
  py::list reserves;
  for (const Reserve& reserve : picture.reserves) {
    py::dict held;
    held["side"] = reserve.side;
    held["piece"] = std::string(picture.pieces[reserve.piece].name);
    held["count"] = reserve.count;
    reserves.append(held);
  }
  py::dict out;
  out["width"] = grid.width;
  out["height"] = grid.height;
  out["sides"] = picture.sides;
  out["to_move"] = picture.to_move;
  out["cells"] = cells;
  out["links"] = links;
  out["reserves"] = reserves;
  out["notes"] = picture.notes;
  py::dict pieces;
  for (const PieceStyle& piece : picture.pieces) {
    py::dict style;
    style["glyph"] = std::string(piece.glyph);
    style["halo"] = std::string(piece.halo);
    pieces[py::str(std::string(piece.name))] = style;
  }
  out["pieces"] = pieces;
  py::dict marks;
  for (const MarkStyle& mark : picture.marks) {
    py::dict style;
    style["look"] = std::string(kMarkLookNames[static_cast<int>(mark.look)]);
    style["colour"] = std::string(mark.colour);
    style["accent"] = std::string(mark.accent);
    marks[py::str(std::string(mark.name))] = style;
  }
  out["marks"] = marks;
  return out;
}

std::shared_ptr<AnyGame> game_of(const AnyState& s) {
  return std::const_pointer_cast<AnyGame>(s.game().shared_from_this());
}

}  // namespace

void init_states(py::module_& m) {
  py::class_<AnyState>(m, "State")
      .def("current_player", &AnyState::current_player,
           "The player to move; -4 (pyspiel.PlayerId.TERMINAL) once over.")
      .def("legal_actions", &AnyState::legal_actions)
      .def(
          "legal_actions",
          [](const AnyState& s, int player) {
            return player == s.current_player() ? s.legal_actions() : std::vector<Action>{};
          },
          py::arg("player"), "The player's legal actions: none unless it is to move.")
      .def("legal_actions_mask", &legal_actions_mask, "bool [num_actions], True = legal.")
      .def("is_chance_node", [](const AnyState&) { return false; })
      .def("is_simultaneous_node", [](const AnyState&) { return false; })
      .def("is_player_node", [](const AnyState& s) { return !s.is_terminal(); })
      .def(
          "apply_action",
          [](AnyState& s, const py::handle& action) {
            s.apply_action(checked_action(action, s.game().info().num_actions));
          },
          py::arg("action"),
          "Plays a legal action (an int or numpy integer); raises ValueError (and changes "
          "nothing) otherwise, TypeError for a bool, float or str.")
      .def("clone", &AnyState::clone)
      .def("__copy__", &AnyState::clone)
      .def("__deepcopy__", [](const AnyState& s, py::dict) { return s.clone(); })
      .def("is_terminal", &AnyState::is_terminal, "Over, by the rules or by the length cap.")
      .def("is_truncated", &AnyState::is_truncated, "Over by the length cap.")
      .def("returns", &AnyState::returns, "One value per player (all zero until the end).")
      .def("rewards", &AnyState::returns,
           "The last step's rewards: the returns, given at the end only (pyspiel's TERMINAL "
           "reward model).")
      .def(
          "player_return",
          [](const AnyState& s, int player) {
            const std::vector<float> returns = s.returns();
            if (player < 0 || player >= static_cast<int>(returns.size()))
              throw std::invalid_argument("player " + std::to_string(player) + " is out of range");
            return returns[player];
          },
          py::arg("player"))
      .def("observation_tensor", &observation_tensor, py::arg("player") = py::none(),
           "float32 [C, H, W] from `player`'s side (default: the player to move, or 0 once "
           "the game is over).")
      .def(
          "action_to_string",
          [](const AnyState& s, const py::handle& action) {
            return s.action_to_string(checked_action(action, s.game().info().num_actions));
          },
          py::arg("action"))
      .def(
          "action_to_string",
          [](const AnyState& s, int player, const py::handle& action) {
            check_is_mover(s, player);
            return s.action_to_string(checked_action(action, s.game().info().num_actions));
          },
          py::arg("player"), py::arg("action"))
      .def("string_to_action", &AnyState::string_to_action, py::arg("text"))
      .def("serialize", &AnyState::serialize)
      .def("fen", &AnyState::fen,
           "The FEN of this position alone, for a game a UCI engine plays (game.uci_variant "
           "is set). Raises ValueError for a game without FENs.")
      .def(
          "perft",
          [](const AnyState& s, int depth) {
            py::gil_scoped_release release;
            return s.perft(depth);
          },
          py::arg("depth"),
          "Leaves of the legal-action tree `depth` decisions deep (a finished game has none "
          "below it). Raises ValueError for depth < 0. Releases the GIL while counting.")
      .def(
          "perft_divide",
          [](const AnyState& s, int depth) {
            std::vector<std::pair<std::string, uint64_t>> lines;
            {
              py::gil_scoped_release release;
              lines = s.perft_divide(depth);
            }
            py::dict out;
            for (const auto& [action, count] : lines) out[py::str(action)] = count;
            return out;
          },
          py::arg("depth"),
          "{action text: perft(depth - 1) below it} for each legal action, sorted by text; "
          "the values add up to perft(depth). Raises ValueError for depth < 1.")
      .def(
          "observation_string", [](const AnyState& s, py::object) { return s.to_string(); },
          py::arg("player") = py::none(), "The board as text (the same for every player).")
      .def("picture", &picture_of,
           "What a drawing of the state shows: {'width', 'height', 'sides', 'to_move', 'cells' "
           "(one dict per square, rank 1 first: square, file, rank, piece, owner, count, number, "
           "zone, marks), 'links' ((square, square, side) lines, such as bridges), 'reserves' "
           "(pieces off the board: side, piece, count), 'notes', 'pieces' ({name: {'glyph', "
           "'halo'}}: how each kind of piece is drawn), 'marks' ({name: {'look', 'colour', "
           "'accent'}}: how each mark is drawn)}. svg() draws it.")
      .def("last_move", &AnyState::last_move,
           "The text of the last action applied to this state (or the state it was cloned "
           "from), '' if none.")
      .def("game", &game_of)
      .def("get_game", &game_of)
      .def("__str__", &AnyState::to_string)
      .def("__repr__",
           [](const AnyState& s) {
             return "<knightgym.State " + s.game().spec() + ": " + s.serialize() + ">";
           })
      .def(py::pickle(
          [](const AnyState& s) { return py::make_tuple(s.game().spec(), s.serialize()); },
          [](const py::tuple& t) {
            return load_game(t[0].cast<std::string>())->deserialize_state(t[1].cast<std::string>());
          }));
}

}  // namespace knightgym::python
