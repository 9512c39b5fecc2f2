#include "bindings/bindings.h"

PYBIND11_MODULE(_knightgym, m) {
  m.doc() = "knightgym's compiled core; use the knightgym package";
  knightgym::python::init_checks(m);
  knightgym::python::init_output_lock(m);
  knightgym::python::init_games(m);
  knightgym::python::init_states(m);
  knightgym::python::init_vector_env(m);
  knightgym::python::init_game_extras(m);
  knightgym::python::init_agents(m);
  knightgym::python::init_balance(m);
  knightgym::python::init_ladder(m);
  knightgym::python::init_statistics(m);
  knightgym::python::init_teacher(m);
  knightgym::python::init_run_files(m);
}
