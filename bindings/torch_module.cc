// knightgym._knightgym_torch: the LibTorch network backend and training, in a module of
// their own so that `import knightgym` loads no libtorch. The core module imports it the
// first time a network is asked for (agents/network.h) and takes the backend from its
// capsule; the training here uses the backend directly.
#include <pybind11/pybind11.h>

#include "agents/torch_evaluator.h"
#include "bindings/training_bindings.h"

PYBIND11_MODULE(_knightgym_torch, m) {
  m.doc() = "knightgym's LibTorch networks and training; loaded by the knightgym package";
  knightgym::use_torch_networks();
  m.attr("network_backend") = pybind11::capsule(
      static_cast<const void*>(&knightgym::torch_network_backend()), "knightgym.NetworkBackend");
  knightgym::python::init_training(m);
}
