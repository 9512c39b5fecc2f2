// knightgym._knightgym_torch: the LibTorch network backend, in a module of its own so that
// `import knightgym` loads no libtorch. The core module imports it the first time a
// network is asked for (agents/network.h) and takes the backend from its capsule.
#include <pybind11/pybind11.h>

#include "agents/torch_evaluator.h"

PYBIND11_MODULE(_knightgym_torch, m) {
  m.doc() = "knightgym's LibTorch networks; loaded by the knightgym package when needed";
  m.attr("network_backend") = pybind11::capsule(
      static_cast<const void*>(&knightgym::torch_network_backend()), "knightgym.NetworkBackend");
}
