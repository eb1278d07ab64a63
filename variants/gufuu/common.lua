-- common.lua: the board reading every Gufuu effect shares.  It registers
-- no effect; it fills the global table `gufuu`.
--
-- Squares are numbered 1 .. N = files * ranks (1 + file + rank * files,
-- rank 0 = the bottom row), as pos:token numbers them; gufuu.NAME[i] is
-- the tiers name ("a1") and gufuu.INDEX the reverse.  Facings are numbers: 0 n, 1 e, 2 s, 3 w
-- (clockwise).  A board, as gufuu.read returns it, is a list: b[i] is the
-- piece on square i or false, b[N + 1] and b[N + 2] the squares of the
-- Kings of sides 0 and 1 (false while not dropped).  A piece is
-- {face = .., owner = 0|1|2, dir = 0..3, reach = .., list = ..}; these
-- tables are shared: never change one.
--
-- Speed.  A solve runs these hooks some 850,000 times, so what does not
-- depend on the position is worked out here, once: every token's piece
-- with its pattern turned to its facing (p.reach[i]: the set of squares
-- it reaches from square i; p.list[i]: the same squares as a list), and
-- every token's board code on every square (below).  The hooks read the
-- board as one integer, its code, and keep what they work out from it by
-- the bits they read; only boards no game reaches go the general way,
-- through a scratch board (gufuu.scan).
gufuu = {}

local FILES, RANKS = rules.files, rules.ranks
local N = FILES * RANKS
gufuu.N = N

-- The faces by their letters in positions (the symbols of variant.yaml).
local FACE = {K = "king", Z = "kaze", A = "arashi"}
local DIR = {n = 0, e = 1, s = 2, w = 3}
local DIR_NAME = {[0] = "n", "e", "s", "w"}

-- The step patterns facing n ([dx, dy]: +dy ahead, +dx to the right),
-- the same as the diagrams of variant.yaml.  test_gufuu.c checks the
-- engine's moves against the same offsets for every square and facing.
local PATTERN = {
  king = {{-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {1, 0}, {-1, -1}, {0, -1}, {1, -1}},
  kaze = {{0, 1}, {-1, -1}, {1, -1}},
  arashi = {{-1, 1}, {0, 1}, {1, 1}, {-1, 0}, {1, 0}},
}

-- An offset in the piece's frame, turned to the board for a facing.
local function turn(dx, dy, dir)
  if dir == 0 then return dx, dy end
  if dir == 1 then return dy, -dx end
  if dir == 2 then return -dx, -dy end
  return -dy, dx
end

local NAME, INDEX = {}, {}
for r = 0, RANKS - 1 do
  for f = 0, FILES - 1 do
    local name = string.char(97 + f) .. (r + 1)
    NAME[1 + f + r * FILES] = name
    INDEX[name] = 1 + f + r * FILES
  end
end
gufuu.NAME, gufuu.INDEX = NAME, INDEX

-- REACH[face][dir][i]: the set of squares the face reaches from square i;
-- LIST[face][dir][i] the same squares in the order `pairs` visits the
-- set (the order of the shared captures, hence of the moves).
local REACH, LIST = {}, {}
for face, steps in pairs(PATTERN) do
  REACH[face], LIST[face] = {}, {}
  for dir = 0, 3 do
    REACH[face][dir], LIST[face][dir] = {}, {}
    for i = 1, N do
      local set, f, r = {}, (i - 1) % FILES, (i - 1) // FILES
      for _, s in ipairs(steps) do
        local dx, dy = turn(s[1], s[2], dir)
        if f + dx >= 0 and f + dx < FILES and r + dy >= 0 and r + dy < RANKS then
          set[1 + f + dx + (r + dy) * FILES] = true
        end
      end
      local list = {}
      for j in pairs(set) do list[#list + 1] = j end
      REACH[face][dir][i], LIST[face][dir][i] = set, list
    end
  end
end
gufuu.REACH, gufuu.LIST = REACH, LIST

-- Pieces by their tokens ("K@n", "k@s", "*Z@e"), all made here; one the
-- table lacks is made when first asked for.
local function make_piece(tok)
  local shared = tok:sub(1, 1) == "*"
  local letter = tok:sub(shared and 2 or 1, shared and 2 or 1)
  local face, dir = FACE[letter:upper()], DIR[tok:sub(-1)]
  return {face = face, dir = dir,
          owner = shared and 2 or (letter == letter:upper() and 0 or 1),
          reach = REACH[face] and REACH[face][dir], list = LIST[face] and LIST[face][dir]}
end
local PIECE = setmetatable({}, {__index = function(t, tok)
  local p = make_piece(tok)
  t[tok] = p
  return p
end})
-- BY_API[face][owner][facing]: the same pieces, from an API piece table.
-- ROLE[tok]: 0 or 1 for a King of that side, 2 for a shared piece (nil
-- for any other piece).
local BY_API, ROLE = {}, {}
for letter, face in pairs(FACE) do
  BY_API[face] = {}
  for owner = 0, 2 do
    BY_API[face][owner] = {}
    for dir = 0, 3 do
      local sym = owner == 1 and letter:lower() or letter
      local tok = (owner == 2 and "*" or "") .. sym .. "@" .. DIR_NAME[dir]
      local p = PIECE[tok]
      BY_API[face][owner][DIR_NAME[dir]] = p
      if owner == 2 then
        ROLE[tok] = 2
      elseif face == "king" then
        ROLE[tok] = owner
      end
    end
  end
end
gufuu.PIECE, gufuu.ROLE = PIECE, ROLE

function gufuu.index(name) return name and INDEX[name] end

-- A piece table of the API (a move's piece or taken) as a gufuu piece.
local function from_api(t)
  return BY_API[t.face][t.owner][t.facing]
end
gufuu.from_api = from_api

-- Puts the pieces of pos:occupied()'s answer (square, token, ...) on b.
local function fill(b, i, tok, ...)
  if not i then return b end
  local p = PIECE[tok]
  b[i] = p
  if p.face == "king" then b[N + 1 + p.owner] = i end
  return fill(b, ...)
end

-- Reads the board now into b and returns it.
local function read_into(pos, b)
  for i = 1, N + 2 do b[i] = false end
  return fill(b, pos:occupied())
end

-- The board now, as a new table.
function gufuu.read(pos) return read_into(pos, {}) end

-- The board now, in a scratch table shared by all hooks: valid until the
-- next scan (no hook runs another hook while it reads the board).
local SCRATCH = {}
function gufuu.scan(pos) return read_into(pos, SCRATCH) end

-- Does the shared piece on square i cover both Kings (attack the one
-- while touching the other)?  That is what gives check.
local function covers(b, i)
  local p, k0, k1 = b[i], b[N + 1], b[N + 2]
  if not p or p.owner ~= 2 or not k0 or not k1 then return false end
  local set = p.reach[i]
  return (set[k0] and set[k1]) or false
end
gufuu.covers = covers

-- Does some shared piece cover both Kings?
function gufuu.any_covers(b)
  for i = 1, N do
    if covers(b, i) then return true end
  end
  return false
end

-- Board codes.  The hooks that run for every position read the board with
-- one pos:occupied() call and add up one precomputed integer per piece,
-- CODE[token][square]: no table is made, nothing branches on the pieces.
-- The sum packs what the Gufuu rules ask of a board, in fields of bits
-- (a "mask" has a bit per square, bit i - 1 for square i):
--   counts (3 bits each): the shared Kaze, the shared Arashi, King 0,
--     King 1, any other piece;
--   ZR, AR: the masks of the squares the shared Kaze / Arashi reaches;
--   K0B, K1B: the masks of King 0's / King 1's square;
--   ZB, AB: the masks of the Kaze's / Arashi's square;
--   K0F, K1F: each King's square index (3 bits) and facing (2 bits).
-- While every count is 0 or 1 the fields cannot carry into each other
-- (the counts, lowest, take no carry), so each field holds one piece.
-- gufuu.code(pos) gives the sum for a board of a King a side and at most
-- one shared Kaze and one shared Arashi (every board a game reaches),
-- nil for any other board: the hooks then take the general way.
--
-- Speed, again: a Lua instruction costs some 30 machine instructions here,
-- a table lookup twice that, a Lua function call as much as the whole
-- sum.  So the shifts are <const> (the compiler puts them in the
-- instructions), and the hooks that run by the hundred thousand write the
-- reading out instead of calling gufuu.code; they name the fields they
-- read the same way, and gufuu.check_fields compares their copies with
-- gufuu.FIELDS when they load.
local Z_COUNT <const>, A_COUNT <const>, K0_COUNT <const>, K1_COUNT <const> = 0, 3, 6, 9
local OTHER_COUNT <const> = 12
local ZR <const>, AR <const>, K0B <const>, K1B <const> = 15, 21, 27, 33
local ZB <const>, AB <const>, K0F <const>, K1F <const> = 39, 45, 51, 56
-- ODD: the count bits that must be clear (all but the low bit of the
-- Kaze's and the Arashi's counts); KINGS: the Kings' counts, each 1.
local ODD <const> = ((1 << 15) - 1) & ~(1 << Z_COUNT | 1 << A_COUNT)
local KINGS <const> = 1 << K0_COUNT | 1 << K1_COUNT
gufuu.FIELDS = {ZR = ZR, AR = AR, K0B = K0B, K1B = K1B, ZB = ZB, AB = AB, K0F = K0F,
                K1F = K1F, ODD = ODD, KINGS = KINGS}

-- Raises an error unless a hook file's copy of some fields is this one.
function gufuu.check_fields(t)
  for name, value in pairs(t) do
    if gufuu.FIELDS[name] ~= value then
      error("board code: " .. name .. " is " .. tostring(gufuu.FIELDS[name]) .. ", not " .. value)
    end
  end
end

-- The mask of a set of squares (p.reach[i]).
local function mask(set)
  local m = 0
  for j in pairs(set) do m = m | 1 << (j - 1) end
  return m
end
gufuu.mask = mask

-- CODE[tok][i]; a token the table lacks counts as "any other piece".
local OTHER = {}
for i = 1, N do OTHER[i] = 1 << OTHER_COUNT end
local CODE = setmetatable({}, {__index = function() return OTHER end})
for tok, p in pairs(PIECE) do
  local code, role = {}, ROLE[tok]
  for i = 1, N do
    local bit = 1 << (i - 1)
    if role == 2 and p.face == "kaze" then
      code[i] = 1 << Z_COUNT | mask(p.reach[i]) << ZR | bit << ZB
    elseif role == 2 and p.face == "arashi" then
      code[i] = 1 << A_COUNT | mask(p.reach[i]) << AR | bit << AB
    elseif role == 0 then
      code[i] = 1 << K0_COUNT | bit << K0B | (i | p.dir << 3) << K0F
    elseif role == 1 then
      code[i] = 1 << K1_COUNT | bit << K1B | (i | p.dir << 3) << K1F
    else
      code[i] = 1 << OTHER_COUNT
    end
  end
  CODE[tok] = code
end
gufuu.CODE = CODE

-- pos:occupied as a plain function, looked up in the position's metatable
-- at the first call (the function replaces itself): a method call pays
-- that lookup every time.  The hook files do the same.
local occupied
occupied = function(pos)
  occupied = pos.occupied
  return occupied(pos)
end

-- The board code of the position, or nil (see above).  With fewer than
-- three pieces there is no King pair and a shared piece.  (The hooks
-- write this out.)
function gufuu.code(pos)
  local i1, t1, i2, t2, i3, t3, i4, t4, extra = occupied(pos)
  local c
  if t4 then
    if not extra then c = CODE[t1][i1] + CODE[t2][i2] + CODE[t3][i3] + CODE[t4][i4] end
  elseif t3 then
    c = CODE[t1][i1] + CODE[t2][i2] + CODE[t3][i3]
  end
  if c and (c & ODD) == KINGS then return c end
  return nil
end

-- Does a shared piece cover both Kings (the side to move in check)?  The
-- check hook itself.  The answer depends on the code's counts and fields
-- ZR to K1B alone (the Kings' squares are both in the Kaze's or the
-- Arashi's reach), some 3,000 values in a solve against 250,000 asks:
-- COVERS keeps it by those bits, worked out at the first ask; nil for a
-- board gufuu.code does not take, which goes the general way.
local COVERS_BITS <const> = (1 << (K1B + 6)) - 1
local COVERS = setmetatable({}, {__index = function(t, key)
  if (key & ODD) ~= KINGS then return nil end
  local kings = (key >> K0B | key >> K1B) & 63
  local covers = (key >> ZR & kings) == kings or (key >> AR & kings) == kings
  t[key] = covers
  return covers
end})
local any_covers, read = gufuu.any_covers, gufuu.read
function gufuu.contact(pos)
  local i1, t1, i2, t2, i3, t3, i4, t4, extra = occupied(pos)   -- gufuu.code
  local CODE, c = CODE, nil                   -- a register, not an upvalue
  if t4 then
    if not extra then c = CODE[t1][i1] + CODE[t2][i2] + CODE[t3][i3] + CODE[t4][i4] end
  elseif t3 then
    c = CODE[t1][i1] + CODE[t2][i2] + CODE[t3][i3]
  end
  local covers = c and COVERS[c & COVERS_BITS]
  if covers == nil then return any_covers(read(pos)) end
  return covers
end
