#include "sazpack/format.h"

namespace manaka::sazpack {

bool is_known_game_result(uint8_t value) {
  return value <= 14 || value == 16 || value == 17 || value == 20 || value == 21;
}

Outcome outcome_of(GameResult result) {
  switch (result) {
    case GameResult::BlackWin:
    case GameResult::BlackWinByDeclaration:
    case GameResult::BlackWinByForfeit:
    case GameResult::BlackWinByIllegalMove:
    case GameResult::BlackWinByTimeout:
    case GameResult::BlackWinByTryRule: return Outcome::BlackWin;
    case GameResult::WhiteWin:
    case GameResult::WhiteWinByDeclaration:
    case GameResult::WhiteWinByForfeit:
    case GameResult::WhiteWinByIllegalMove:
    case GameResult::WhiteWinByTimeout:
    case GameResult::WhiteWinByTryRule: return Outcome::WhiteWin;
    case GameResult::DrawByRepetition:
    case GameResult::DrawByMaxPlies:
    case GameResult::DrawByImpasse:
    case GameResult::DrawByAdjudication: return Outcome::Draw;
    case GameResult::Error:
    case GameResult::Invalid:
    case GameResult::Paused: return Outcome::None;
  }
  return Outcome::None;
}

const char* to_string(GameResult result) {
  switch (result) {
    case GameResult::BlackWin: return "BlackWin";
    case GameResult::WhiteWin: return "WhiteWin";
    case GameResult::DrawByRepetition: return "DrawByRepetition";
    case GameResult::Error: return "Error";
    case GameResult::BlackWinByDeclaration: return "BlackWinByDeclaration";
    case GameResult::WhiteWinByDeclaration: return "WhiteWinByDeclaration";
    case GameResult::DrawByMaxPlies: return "DrawByMaxPlies";
    case GameResult::Invalid: return "Invalid";
    case GameResult::BlackWinByForfeit: return "BlackWinByForfeit";
    case GameResult::WhiteWinByForfeit: return "WhiteWinByForfeit";
    case GameResult::DrawByImpasse: return "DrawByImpasse";
    case GameResult::Paused: return "Paused";
    case GameResult::BlackWinByIllegalMove: return "BlackWinByIllegalMove";
    case GameResult::WhiteWinByIllegalMove: return "WhiteWinByIllegalMove";
    case GameResult::DrawByAdjudication: return "DrawByAdjudication";
    case GameResult::BlackWinByTimeout: return "BlackWinByTimeout";
    case GameResult::WhiteWinByTimeout: return "WhiteWinByTimeout";
    case GameResult::BlackWinByTryRule: return "BlackWinByTryRule";
    case GameResult::WhiteWinByTryRule: return "WhiteWinByTryRule";
  }
  return "unknown";
}

const char* to_string(TerminationReason reason) {
  switch (reason) {
    case TerminationReason::NoLegalMoves: return "NoLegalMoves";
    case TerminationReason::RepetitionDraw: return "RepetitionDraw";
    case TerminationReason::PerpetualCheckWin: return "PerpetualCheckWin";
    case TerminationReason::PerpetualCheckLoss: return "PerpetualCheckLoss";
    case TerminationReason::RepetitionSuperior: return "RepetitionSuperior";
    case TerminationReason::RepetitionInferior: return "RepetitionInferior";
    case TerminationReason::EnteringKingDeclaration: return "EnteringKingDeclaration";
    case TerminationReason::MaxGamePlies: return "MaxGamePlies";
    case TerminationReason::Resignation: return "Resignation";
    case TerminationReason::Adjudication: return "Adjudication";
  }
  return "unknown";
}

const char* to_string(EnteringKingRule rule) {
  switch (rule) {
    case EnteringKingRule::None: return "None";
    case EnteringKingRule::Point24: return "Point24";
    case EnteringKingRule::Point24Handicap: return "Point24Handicap";
    case EnteringKingRule::Point27: return "Point27";
    case EnteringKingRule::Point27Handicap: return "Point27Handicap";
    case EnteringKingRule::TryRule: return "TryRule";
    case EnteringKingRule::Unset: return "Unset";
  }
  return "unknown";
}

const char* to_string(Outcome outcome) {
  switch (outcome) {
    case Outcome::BlackWin: return "Black won";
    case Outcome::WhiteWin: return "White won";
    case Outcome::Draw: return "draw";
    case Outcome::None: return "no outcome";
  }
  return "unknown";
}

}  // namespace manaka::sazpack
