// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The engine modules, one file each; engine_module.cpp lists them by family.

#include "kvscope/engines/engine_module.h"

namespace kvscope::engines {

const EngineModule& transformers(); // Hugging Face transformers (dynamic, static, offloaded)
const EngineModule& vllm();         // vLLM
const EngineModule& llamaCpp();     // llama.cpp (llama-server)
const EngineModule& tgi();          // Hugging Face Text Generation Inference
const EngineModule& sglang();       // SGLang

} // namespace kvscope::engines
