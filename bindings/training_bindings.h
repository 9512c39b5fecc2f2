// The training part of the LibTorch module (torch_module.cc).
#pragma once

#include <pybind11/pybind11.h>

namespace knightgym::python {

void init_training(pybind11::module_& m);  // Training and SelfPlayActor

}  // namespace knightgym::python
