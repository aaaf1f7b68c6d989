// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/formats/gguf.h"

#include <array>

namespace kvscope {

namespace {

// ggml's tensor types with (elements per block, bytes per block), as gguf-py lists them in
// GGML_QUANT_SIZES and GGMLQuantizationType (ggml-org/llama.cpp, gguf-py/gguf/constants.py).
// A file format's definition, not a tunable figure: a wrong entry would misread every file.
constexpr std::array kTypes{
    GgmlType{0, "F32", 1, 4},         GgmlType{1, "F16", 1, 2},
    GgmlType{2, "Q4_0", 32, 18},      GgmlType{3, "Q4_1", 32, 20},
    GgmlType{6, "Q5_0", 32, 22},      GgmlType{7, "Q5_1", 32, 24},
    GgmlType{8, "Q8_0", 32, 34},      GgmlType{9, "Q8_1", 32, 40},
    GgmlType{10, "Q2_K", 256, 84},    GgmlType{11, "Q3_K", 256, 110},
    GgmlType{12, "Q4_K", 256, 144},   GgmlType{13, "Q5_K", 256, 176},
    GgmlType{14, "Q6_K", 256, 210},   GgmlType{15, "Q8_K", 256, 292},
    GgmlType{16, "IQ2_XXS", 256, 66}, GgmlType{17, "IQ2_XS", 256, 74},
    GgmlType{18, "IQ3_XXS", 256, 98}, GgmlType{19, "IQ1_S", 256, 50},
    GgmlType{20, "IQ4_NL", 32, 18},   GgmlType{21, "IQ3_S", 256, 110},
    GgmlType{22, "IQ2_S", 256, 82},   GgmlType{23, "IQ4_XS", 256, 136},
    GgmlType{24, "I8", 1, 1},         GgmlType{25, "I16", 1, 2},
    GgmlType{26, "I32", 1, 4},        GgmlType{27, "I64", 1, 8},
    GgmlType{28, "F64", 1, 8},        GgmlType{29, "IQ1_M", 256, 56},
    GgmlType{30, "BF16", 1, 2},       GgmlType{34, "TQ1_0", 256, 54},
    GgmlType{35, "TQ2_0", 256, 66},   GgmlType{39, "MXFP4", 32, 17},
};

} // namespace

const GgmlType* ggmlType(uint32_t id)
{
    for (const GgmlType& t : kTypes)
        if (t.id == id)
            return &t;
    return nullptr;
}

} // namespace kvscope
