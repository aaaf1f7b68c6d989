// SPDX-License-Identifier: GPL-3.0-or-later
// llama.cpp (llama-server): the KV cache for the whole padded n_ctx allocated at start-up,
// prefill in n_ubatch chunks, layers beyond -ngl and a -nkvo cache computed by the CPU where they
// lie, whole layers per GPU by default (--split-mode layer).
#include "engines/engine_modules.h"

namespace kvscope::engines {

namespace {
class LlamaCppEngine final : public EngineModule
{
public:
    // The CPU backend computes what stays in host RAM; nothing is copied to the GPU per token
    // (tools/server/README.md: -ngl, -nkvo).
    bool computesOnHost(const Scenario&) const override { return true; }
};
} // namespace

const EngineModule& llamaCpp()
{
    static const LlamaCppEngine module;
    return module;
}

} // namespace kvscope::engines
