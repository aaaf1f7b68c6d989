// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

class QUrl;

namespace kvscope::ui {

// The publisher of a source page, as a reader names it: "vLLM (GitHub)" for
// github.com/vllm-project/vllm/..., "meta-llama/Llama-2-7b-hf (Hugging Face)" for a model card,
// "NVIDIA" for developer.nvidia.com, "vLLM documentation" for docs.vllm.ai. A site the table
// does not know is named by its registrable domain ("waredb.com"), never by a path fragment.
QString publisherName(const QUrl& url);

} // namespace kvscope::ui
