// The PackedSfen codec lives with the rules (shogi/packed_sfen.h): SAZ2 stems
// and PackedSfenValue records (stream/import_format.h) share it.
#pragma once

#include "shogi/packed_sfen.h"

namespace manaka::sazpack {

using shogi::decode_packed_sfen;
using shogi::encode_packed_sfen;

}  // namespace manaka::sazpack
