#include <gtest/gtest.h>

#include "chess/position.h"

namespace manaka::chess {
namespace {

constexpr const char* START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

std::string refusal(const std::string& fen) {
  auto pos = Position::from_fen(fen);
  if (pos.ok()) return "accepted";
  EXPECT_EQ(pos.status().kind(), ErrorKind::Invalid);
  return pos.status().message();
}

std::string expected(const std::string& fen, const std::string& what) { return "fen \"" + fen + "\": " + what; }

std::string canonical(const std::string& fen) {
  auto pos = Position::from_fen(fen);
  return pos.ok() ? pos->fen() : pos.status().message();
}

TEST(Fen, StartposAndItsSpellings) {
  EXPECT_EQ(Position::startpos().fen(), START);
  EXPECT_EQ(canonical("startpos"), START);
  EXPECT_EQ(canonical(std::string(" \t") + START + "\r\n"), START);
  EXPECT_EQ(canonical("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"), START);  // four fields
  Position p = Position::startpos();
  EXPECT_EQ(p.side_to_move(), WHITE);
  EXPECT_EQ(p.castling_rights(), ALL_CASTLING);
  EXPECT_EQ(p.ep_square(), SQ_NONE);
  EXPECT_EQ(p.halfmove_clock(), 0);
  EXPECT_EQ(p.fullmove_number(), 1);
  EXPECT_EQ(p.piece_on(SQ_E1), W_KING);
  EXPECT_EQ(p.piece_on(SQ_D8), B_QUEEN);
  EXPECT_EQ(p.piece_on(make_square(4, 3)), NO_PIECE);
  EXPECT_FALSE(p.in_check());
}

// Each of these is what python-chess 1.11.2 prints for the position.
TEST(Fen, RoundTrips) {
  for (const char* fen : {
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
           "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
           "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
           "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
           "rnbqkbnr/pppp1ppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b Kq e3 0 3",
           "4k3/8/8/8/8/8/8/4K3 b - - 99 1000000000",
       }) {
    EXPECT_EQ(canonical(fen), fen);
  }
}

TEST(Fen, CastlingRightsPrintInKqkqOrder) {
  EXPECT_EQ(canonical("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 20"), "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 20");
  EXPECT_EQ(Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 20")->castling_rights(), WHITE_OO | BLACK_OOO);
  EXPECT_EQ(Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R b Qk - 3 20")->castling_rights(), WHITE_OOO | BLACK_OO);
}

// python-chess prints an en-passant square only when a legal capture exists
// (en_passant="legal"); the square is kept inside either way.
TEST(Fen, EnPassantSquarePrintedOnlyWhenACaptureIsLegal) {
  // After 1. e4: no Black pawn can take on e3.
  auto pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  EXPECT_EQ(pos->ep_square(), make_square(4, 2));
  EXPECT_FALSE(pos->has_legal_en_passant());
  EXPECT_EQ(pos->fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  // A capture exists but would expose the king along the fourth rank.
  EXPECT_EQ(canonical("8/8/8/8/k2Pp2Q/8/8/3K4 b - d3 0 1"), "8/8/8/8/k2Pp2Q/8/8/3K4 b - - 0 1");
  EXPECT_EQ(canonical("8/8/8/8/k2Pp3/8/8/3K4 b - d3 0 1"), "8/8/8/8/k2Pp3/8/8/3K4 b - d3 0 1");
  // A capturer pinned on its file cannot take; one pinned on the diagonal
  // it captures along can.
  EXPECT_EQ(canonical("2k5/8/8/8/2pP4/8/8/2R1K3 b - d3 0 1"), "2k5/8/8/8/2pP4/8/8/2R1K3 b - - 0 1");
  EXPECT_EQ(canonical("8/8/8/1k6/2pP4/8/8/5BK1 b - d3 0 1"), "8/8/8/1k6/2pP4/8/8/5BK1 b - d3 0 1");
}

TEST(Fen, NormalizedFenSetsTheFullmoveNumberToOne) {
  auto pos = Position::from_fen("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8");
  ASSERT_TRUE(pos.ok());
  EXPECT_EQ(pos->normalized_fen(), "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 1");
  EXPECT_EQ(pos->fen(), "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8");
  EXPECT_EQ(pos->fullmove_number(), 8);
}

TEST(Fen, RefusesBoardSyntaxWithOffsetAndExpectation) {
  std::string s = "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(refusal(s),
            expected(s, "offset 13: expected a piece letter (PNBRQK, pnbrqk for Black), a digit 1-8 or '/', got 'x'"));
  s = "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(refusal(s),
            expected(s, "offset 18: expected a piece letter (PNBRQK, pnbrqk for Black), a digit 1-8 or '/', got '9'"));
  s = "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 16: rank 7 has 7 squares, expected 8"));
  s = "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 17: rank 7 has more than 8 squares"));
  s = "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 19: expected a piece letter or '/' after a digit, got '4'"));
  s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/8 w KQkq - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 43: more than 8 ranks"));
  s = "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 41: the board has 7 ranks, expected 8"));
  s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 42: rank 1 has 7 squares, expected 8"));
  // The brief's Kiwipete, with nine squares on rank 3.
  s = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1pP/PPPBBPPP/R3K2R w KQkq - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "offset 40: rank 3 has more than 8 squares"));
  EXPECT_EQ(refusal(""), "fen \"\": offset 0: expected a board, got the end");
  EXPECT_EQ(refusal(" \n"), "fen \" \n\": offset 0: expected a board, got the end");
}

TEST(Fen, AHugeInputIsQuotedShort) {
  std::string s = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 " + std::string(100'000, 'x');
  std::string why = refusal(s);
  EXPECT_LT(why.size(), 300u) << why.substr(0, 300);
  EXPECT_NE(why.find("... (100057 bytes)\": "), std::string::npos) << why.substr(0, 300);
}

TEST(Fen, RefusesOtherFieldsWithOffsetAndExpectation) {
  const std::string board = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";  // offsets 0..42
  auto with = [&](const std::string& rest) { return board + rest; };
  std::string s = board;
  EXPECT_EQ(refusal(s), expected(s, "offset 43: expected ' ' before the side to move, got the end"));
  s = with(" x KQkq - 0 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 44: expected the side to move 'w' or 'b', got 'x'"));
  s = with("  w KQkq - 0 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 44: expected the side to move 'w' or 'b', got ' '"));
  s = with(" wb KQkq - 0 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 45: expected ' ' after the side to move, got 'b'"));
  s = with(" w");
  EXPECT_EQ(refusal(s), expected(s, "offset 45: expected ' ' before the castling rights, got the end"));
  s = with(" w KQkx - 0 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 49: expected '-' or castling letters K, Q, k, q, got 'x'"));
  s = with(" w QK - 0 1");
  EXPECT_EQ(refusal(s),
            expected(s, "offset 47: castling letter 'K' repeated or out of order, expected the order KQkq"));
  s = with(" w KK - 0 1");
  EXPECT_EQ(refusal(s),
            expected(s, "offset 47: castling letter 'K' repeated or out of order, expected the order KQkq"));
  s = with(" w -K - 0 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 47: expected ' ' after the castling rights, got 'K'"));
  s = with(" w KQkq");
  EXPECT_EQ(refusal(s), expected(s, "offset 50: expected ' ' before the en-passant square, got the end"));
  s = with(" w KQkq x3 0 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 51: expected '-' or an en-passant square such as e3, got 'x'"));
  s = with(" w KQkq e 0 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 52: expected the rank 1-8 of the en-passant square, got ' '"));
  s = with(" w KQkq e33 0 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 53: expected ' ' after the en-passant square, got '3'"));
  s = with(" w KQkq - 0");
  EXPECT_EQ(refusal(s), expected(s, "offset 54: expected ' ' before the fullmove number, got the end"));
  s = with(" w KQkq - x 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 53: expected the halfmove clock (digits), got 'x'"));
  s = with(" w KQkq - -1 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 53: expected the halfmove clock (digits), got '-'"));
  s = with(" w KQkq - 0x 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 54: expected a digit in the halfmove clock, got 'x'"));
  s = with(" w KQkq - 0 0");
  EXPECT_EQ(refusal(s), expected(s, "offset 55: the fullmove number must be from 1 to 1000000000, got 0"));
  s = with(" w KQkq - 0 99999999999");
  EXPECT_EQ(refusal(s),
            expected(s, "offset 55: the fullmove number must be from 1 to 1000000000, got 99999999999"));
  s = with(" w KQkq - 1000000001 1");
  EXPECT_EQ(refusal(s), expected(s, "offset 53: the halfmove clock must be from 0 to 1000000000, got 1000000001"));
  s = with(" w KQkq - 0 1x");
  EXPECT_EQ(refusal(s), expected(s, "offset 56: expected a digit in the fullmove number, got 'x'"));
  s = with(" w KQkq - 0 1 x");
  EXPECT_EQ(refusal(s), expected(s, "offset 56: expected the end after the fullmove number, got ' '"));
}

TEST(Fen, RefusesPositionsThatBreakARule) {
  std::string s = "8/8/8/8/8/8/8/8 w - - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "White has 0 kings, expected exactly one"));
  s = "4k3/8/8/8/8/8/8/K3K3 w - - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "White has 2 kings, expected exactly one"));
  s = "8/8/8/8/8/8/8/4K3 w - - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "Black has 0 kings, expected exactly one"));
  s = "P3k3/8/8/8/8/8/8/4K3 w - - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "White pawn on a8: no pawn may stand on rank 1 or 8"));
  s = "4k3/8/8/8/8/8/8/p3K3 w - - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "Black pawn on a1: no pawn may stand on rank 1 or 8"));
  s = "4k3/8/8/8/8/1P6/PPPPPPPP/QQQQKQQQ w - - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "White has 17 pieces, more than the 16 of a set"));
  s = "4k3/8/8/8/8/1P6/PPPPPPPP/4K3 w - - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "White has 9 pawns, more than 8"));
  s = "4k3/8/8/8/8/8/PPPPPPPP/QQQQKQQQ w - - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "White has 6 queens, rooks, bishops and knights beyond a set's, more than its "
                                    "0 missing pawns could have promoted to"));
  s = "4k3/8/8/8/8/8/8/4R1K1 w - - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "Black, not to move, is in check from e1"));
  s = "4k3/8/8/8/8/5n2/8/4K3 b - - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "White, not to move, is in check from f3"));
  s = "r3k2r/8/8/8/8/8/8/R3K1R1 w KQkq - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "castling right K needs the White king on e1 and a White rook on h1"));
  s = "r3k2r/8/8/8/8/8/8/R2K3R w Q - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "castling right Q needs the White king on e1 and a White rook on a1"));
  s = "r3k2r/8/8/8/8/8/8/R3K2R w Kk - 0 1";
  EXPECT_EQ(refusal(s), "accepted");
  s = "1r2k2r/8/8/8/8/8/8/4K3 w q - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "castling right q needs the Black king on e8 and a Black rook on a8"));
  s = "4k2b/8/8/8/8/8/8/4K3 w k - 0 1";
  EXPECT_EQ(refusal(s), expected(s, "castling right k needs the Black king on e8 and a Black rook on h8"));
  s = "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1";
  EXPECT_EQ(refusal(s),
            expected(s, "en-passant square e3 is on rank 3, but with White to move it can only be on rank 6"));
  s = "4k3/8/8/4p3/8/8/8/4K3 b - e6 0 1";
  EXPECT_EQ(refusal(s),
            expected(s, "en-passant square e6 is on rank 6, but with Black to move it can only be on rank 3"));
  s = "4k3/8/8/8/8/8/8/4K3 w - e6 0 1";
  EXPECT_EQ(refusal(s),
            expected(s, "en-passant square e6 needs a Black pawn on e5, the pawn that just moved two squares"));
  s = "4k3/8/4n3/4p3/8/8/8/4K3 w - e6 0 1";
  EXPECT_EQ(refusal(s), expected(s, "en-passant square e6 is occupied"));
  s = "4k3/4n3/8/4p3/8/8/8/4K3 w - e6 0 1";
  EXPECT_EQ(refusal(s), expected(s, "en-passant square e6 needs e7 empty, the square the pawn just moved from"));
  s = "4k3/8/8/8/3P4/8/8/4K3 b - d3 0 1";
  EXPECT_EQ(refusal(s), "accepted");
}

TEST(Fen, SetupRefusalsNameTheRule) {
  chess::Setup setup;
  setup.board[SQ_E1] = W_KING;
  setup.board[SQ_E8] = B_KING;
  EXPECT_TRUE(Position::from_setup(setup).ok());
  chess::Setup bad = setup;
  bad.board[SQ_A1] = Piece(7);
  EXPECT_EQ(Position::from_setup(bad).status().message(), "unknown piece value 7 on a1");
  bad = setup;
  bad.side = Color(2);
  EXPECT_EQ(Position::from_setup(bad).status().message(), "side to move 2 is neither White nor Black");
  bad = setup;
  bad.castling = 16;
  EXPECT_EQ(Position::from_setup(bad).status().message(), "castling rights 16 are not KQkq bits");
  bad = setup;
  bad.ep = 65;
  EXPECT_EQ(Position::from_setup(bad).status().message(), "en-passant square 65 is not a square");
  bad = setup;
  bad.halfmove_clock = -1;
  EXPECT_EQ(Position::from_setup(bad).status().message(),
            "the halfmove clock must be from 0 to 1000000000, got -1");
}

}  // namespace
}  // namespace manaka::chess
