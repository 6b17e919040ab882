/* Generated from reference_impl/unwinnability/layout.py by setup.py at every build: do not edit.
 * The arrays the compiled searches receive: layout.py says how they are made of these records. */

#define MAXT 16
#define MAXDIR 16
#define MAXPROMO 8
#define MAXSIDES 2
#define TABLES_VERSION 2
#define FEN_INFO_VERSION 1
#define BATCH_CAN 0
#define BATCH_CANNOT 1
#define BATCH_OPEN 2
#define BATCH_STAGE_TERMINAL 0
#define BATCH_STAGE_STATIC 1
#define BATCH_STAGE_HELPMATE 2
#define BATCH_STAGE_NONE 3

/* HEAD: the tables' first record: the move layer's scalars */
#define HEAD_VERSION 0 /* the layout's version, TABLES_VERSION */
#define HEAD_NTYPES 1 /* piece types */
#define HEAD_ROYAL 2 /* the royal type */
#define HEAD_PAWN 3 /* the pawn's type, -1 without one */
#define HEAD_EN_PASSANT 4 /* 1 when en passant is allowed */
#define HEAD_NPROMO 5 /* promotion types */
#define HEAD_PROMO 6 /* the promotion types (8 slots) */
#define HEAD_CASTLING 14 /* 1 when the ruleset castles */
#define HEAD_ROOK_TYPE 15 /* the castling rook's type */
#define HEAD_EMPTY_KING_PATH 16 /* 1 when the king's path must be empty */
#define HEAD_EMPTY_ROOK_PATH 17 /* 1 when the rook's path must be empty */
#define HEAD_SAFE_KING_FROM 18 /* 1 when the king may not castle out of check */
#define HEAD_SAFE_KING_PATH 19 /* 1 when the king may not pass an attacked square */
#define HEAD_SAFE_KING_TO 20 /* 1 when the king may not castle into check */
#define HEAD_ROOK_REMOVED 21 /* 1 when the safe squares are judged with the rook lifted off */
#define HEAD_NSIDES 22 /* castling sides */
#define HEAD_SIDES 23 /* the castling sides (2 SIDE records) */
#define HEAD_PUSH_DELTA 29 /* a pawn push's square step per colour (2 slots) */
#define HEAD_RIGHTS_LOST_FROM 31 /* castling.rights_lost.by: a move from these squares loses the right there */
#define HEAD_RIGHTS_LOST_BY_KING 32 /* 1 when the king's move loses its colour's rights */
#define HEAD_SIZE 33

/* SIDE: a castling side */
#define SIDE_KING_SIDE 0 /* 1 on the king's side */
#define SIDE_KING_TO_FILE 1 /* the king's destination file */
#define SIDE_ROOK_TO_FILE 2 /* the rook's destination file */
#define SIDE_SIZE 3

/* PIECE: one piece type for one colour, after HEAD (per type, per colour) */
#define PIECE_LEAPS 0 /* the leaps' target squares from each square (0 for the pawn) (64 slots) */
#define PIECE_NDIRS 64 /* rider directions */
#define PIECE_DIRS 65 /* the rider directions (16 DIR records) */
#define PIECE_SIZE 97

/* DIR: a rider direction */
#define DIR_DF 0 /* file step */
#define DIR_DR 1 /* rank step */
#define DIR_SIZE 2

/* PAWN: one colour's pawn, after the piece types (per colour) */
#define PAWN_PUSH 0 /* the push's target from each square (64 slots) */
#define PAWN_DOUBLE 64 /* the double step's target from each square (64 slots) */
#define PAWN_CAPTURES 128 /* the capture targets from each square (64 slots) */
#define PAWN_PROMOTION_RANKS 192 /* the squares where a pawn promotes */
#define PAWN_SIZE 193

/* FEN: what the FEN reader needs besides the move layer (an array of its own) */
#define FEN_VERSION 0 /* the layout's version, FEN_INFO_VERSION */
#define FEN_UCI_KING_TAKES_ROOK 1 /* 1 when UCI writes castling as the king taking its rook */
#define FEN_REQUIRE_INITIAL 2 /* 1 when castling rights need the initial squares */
#define FEN_PIECE_OF 3 /* the piece code (colour << 4 | type, 255 none) of each ASCII byte (128 slots) */
#define FEN_LETTER 131 /* each type's lower-case letter (0 without one) (16 slots) */
#define FEN_INITIAL 147 /* the initial array's count per colour and type (32 slots) */
#define FEN_FORBIDDEN_PAWN 179 /* the ranks a pawn may not stand on, per colour (2 slots) */
#define FEN_INITIAL_KINGS 181 /* the initial king squares, per colour (2 slots) */
#define FEN_INITIAL_ROOKS 183 /* the initial rook squares, per colour (2 slots) */
#define FEN_SIZE 185

/* Every constant above, which the compiled module exports as LAYOUT for native.py to check. */
static const struct { const char *name; long long value; } layout_constants[] = {
    {"MAXT", MAXT},
    {"MAXDIR", MAXDIR},
    {"MAXPROMO", MAXPROMO},
    {"MAXSIDES", MAXSIDES},
    {"TABLES_VERSION", TABLES_VERSION},
    {"FEN_INFO_VERSION", FEN_INFO_VERSION},
    {"BATCH_CAN", BATCH_CAN},
    {"BATCH_CANNOT", BATCH_CANNOT},
    {"BATCH_OPEN", BATCH_OPEN},
    {"BATCH_STAGE_TERMINAL", BATCH_STAGE_TERMINAL},
    {"BATCH_STAGE_STATIC", BATCH_STAGE_STATIC},
    {"BATCH_STAGE_HELPMATE", BATCH_STAGE_HELPMATE},
    {"BATCH_STAGE_NONE", BATCH_STAGE_NONE},
    {"HEAD_VERSION", HEAD_VERSION},
    {"HEAD_NTYPES", HEAD_NTYPES},
    {"HEAD_ROYAL", HEAD_ROYAL},
    {"HEAD_PAWN", HEAD_PAWN},
    {"HEAD_EN_PASSANT", HEAD_EN_PASSANT},
    {"HEAD_NPROMO", HEAD_NPROMO},
    {"HEAD_PROMO", HEAD_PROMO},
    {"HEAD_CASTLING", HEAD_CASTLING},
    {"HEAD_ROOK_TYPE", HEAD_ROOK_TYPE},
    {"HEAD_EMPTY_KING_PATH", HEAD_EMPTY_KING_PATH},
    {"HEAD_EMPTY_ROOK_PATH", HEAD_EMPTY_ROOK_PATH},
    {"HEAD_SAFE_KING_FROM", HEAD_SAFE_KING_FROM},
    {"HEAD_SAFE_KING_PATH", HEAD_SAFE_KING_PATH},
    {"HEAD_SAFE_KING_TO", HEAD_SAFE_KING_TO},
    {"HEAD_ROOK_REMOVED", HEAD_ROOK_REMOVED},
    {"HEAD_NSIDES", HEAD_NSIDES},
    {"HEAD_SIDES", HEAD_SIDES},
    {"HEAD_PUSH_DELTA", HEAD_PUSH_DELTA},
    {"HEAD_RIGHTS_LOST_FROM", HEAD_RIGHTS_LOST_FROM},
    {"HEAD_RIGHTS_LOST_BY_KING", HEAD_RIGHTS_LOST_BY_KING},
    {"HEAD_SIZE", HEAD_SIZE},
    {"SIDE_KING_SIDE", SIDE_KING_SIDE},
    {"SIDE_KING_TO_FILE", SIDE_KING_TO_FILE},
    {"SIDE_ROOK_TO_FILE", SIDE_ROOK_TO_FILE},
    {"SIDE_SIZE", SIDE_SIZE},
    {"PIECE_LEAPS", PIECE_LEAPS},
    {"PIECE_NDIRS", PIECE_NDIRS},
    {"PIECE_DIRS", PIECE_DIRS},
    {"PIECE_SIZE", PIECE_SIZE},
    {"DIR_DF", DIR_DF},
    {"DIR_DR", DIR_DR},
    {"DIR_SIZE", DIR_SIZE},
    {"PAWN_PUSH", PAWN_PUSH},
    {"PAWN_DOUBLE", PAWN_DOUBLE},
    {"PAWN_CAPTURES", PAWN_CAPTURES},
    {"PAWN_PROMOTION_RANKS", PAWN_PROMOTION_RANKS},
    {"PAWN_SIZE", PAWN_SIZE},
    {"FEN_VERSION", FEN_VERSION},
    {"FEN_UCI_KING_TAKES_ROOK", FEN_UCI_KING_TAKES_ROOK},
    {"FEN_REQUIRE_INITIAL", FEN_REQUIRE_INITIAL},
    {"FEN_PIECE_OF", FEN_PIECE_OF},
    {"FEN_LETTER", FEN_LETTER},
    {"FEN_INITIAL", FEN_INITIAL},
    {"FEN_FORBIDDEN_PAWN", FEN_FORBIDDEN_PAWN},
    {"FEN_INITIAL_KINGS", FEN_INITIAL_KINGS},
    {"FEN_INITIAL_ROOKS", FEN_INITIAL_ROOKS},
    {"FEN_SIZE", FEN_SIZE},
};
