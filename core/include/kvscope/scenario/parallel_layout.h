// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How a scenario spreads the model over its GPUs and the host: read by the engine modules and
// the evaluation alike.

namespace kvscope {

struct Scenario;

// GPUs that split each layer's heads and run together (tensor parallel); a layer split runs
// whole layers on one GPU at a time, so it divides memory but not time.
int tensorWays(const Scenario& scenario);
// Share of the model's layers on the GPUs; the rest stay in host RAM (llama.cpp -ngl).
double gpuLayerShare(const Scenario& scenario);

// Per-GPU communicator buffers the engine holds: its tensor-parallel overhead when the layers are
// split tensor-parallel over NVLink-linked GPUs (measured on H100s), otherwise none.
double tensorParallelBufferMiB(const Scenario& scenario);

} // namespace kvscope
