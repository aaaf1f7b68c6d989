// SPDX-License-Identifier: GPL-3.0-or-later
// Hugging Face transformers: no memory cap, the prompt in one forward pass, the cache grown per
// token (DynamicCache), reserved up front (StaticCache) or kept in CPU RAM but for the layers in
// flight (OffloadedCache). All of it is the catalog's data; nothing here differs from the shared
// behaviour, which is what transformers does.
#include "engines/engine_modules.h"

namespace kvscope::engines {

namespace {
class TransformersEngine final : public EngineModule
{
};
} // namespace

const EngineModule& transformers()
{
    static const TransformersEngine module;
    return module;
}

} // namespace kvscope::engines
