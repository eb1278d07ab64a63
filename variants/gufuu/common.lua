-- common.lua: the board reading every Gufuu effect shares.  It registers
-- no effect; it fills the global table `gufuu`.
--
-- Squares are numbered 1 .. N = files * ranks (1 + file + rank * files,
-- rank 0 = the bottom row); gufuu.NAME[i] is the tiers name ("a1") and
-- gufuu.INDEX the reverse.  Facings are numbers: 0 n, 1 e, 2 s, 3 w
-- (clockwise).  A board, as gufuu.read returns it, is a list: b[i] is the
-- piece on square i or false, b[N + 1] and b[N + 2] the squares of the
-- Kings of sides 0 and 1 (false while not dropped).  A piece is
-- {face = .., owner = 0|1|2, dir = 0..3}; these tables are shared: never
-- change one.
gufuu = {}

local FILES, RANKS = rules.files, rules.ranks
local N = FILES * RANKS
gufuu.N = N

-- The faces by their letters in positions (the symbols of variant.yaml).
local FACE = {K = "king", Z = "kaze", A = "arashi"}
local DIR = {n = 0, e = 1, s = 2, w = 3}

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

gufuu.NAME, gufuu.INDEX = {}, {}
for r = 0, RANKS - 1 do
  for f = 0, FILES - 1 do
    local name = string.char(97 + f) .. (r + 1)
    gufuu.NAME[1 + f + r * FILES] = name
    gufuu.INDEX[name] = 1 + f + r * FILES
  end
end

-- REACH[face][dir][i]: the set of squares the face reaches from square i.
local REACH = {}
for face, steps in pairs(PATTERN) do
  REACH[face] = {}
  for dir = 0, 3 do
    REACH[face][dir] = {}
    for i = 1, N do
      local set, f, r = {}, (i - 1) % FILES, (i - 1) // FILES
      for _, s in ipairs(steps) do
        local dx, dy = turn(s[1], s[2], dir)
        if f + dx >= 0 and f + dx < FILES and r + dy >= 0 and r + dy < RANKS then
          set[1 + f + dx + (r + dy) * FILES] = true
        end
      end
      REACH[face][dir][i] = set
    end
  end
end
gufuu.REACH = REACH

-- Pieces by their tokens ("K@n", "k@s", "*Z@e"), made once per token.
local PIECE = setmetatable({}, {__index = function(t, tok)
  local shared = tok:sub(1, 1) == "*"
  local letter = tok:sub(shared and 2 or 1, shared and 2 or 1)
  local p = {face = FACE[letter:upper()], dir = DIR[tok:sub(-1)],
             owner = shared and 2 or (letter == letter:upper() and 0 or 1)}
  t[tok] = p
  return p
end})

function gufuu.index(name) return name and gufuu.INDEX[name] end

-- A piece table of the API (a move's piece or taken) as a gufuu piece.
local function from_api(t)
  return {face = t.face, owner = t.owner, dir = DIR[t.facing]}
end

-- The board now.
function gufuu.read(pos)
  local b, name = {false, false, false, false, false, false, false, false}, gufuu.NAME
  for i = 1, N do
    local tok = pos:token(name[i])
    if tok then
      local p = PIECE[tok]
      b[i] = p
      if p.face == "king" then b[N + 1 + p.owner] = i end
    else
      b[i] = false
    end
  end
  return b
end

-- The board before `move`, from the board after it (b, not changed) and
-- the move table (whose piece and taken are as they stood before).
function gufuu.before(b, move)
  local a = {}
  for i = 1, N + 2 do a[i] = b[i] end
  local from, to, kind = gufuu.index(move.from), gufuu.index(move.to), move.kind
  if kind == "drop" then
    a[to] = false
    if move.piece.face == "king" then a[N + 1 + move.piece.owner] = false end
  elseif kind == "move" or kind == "capture" then
    a[from] = from_api(move.piece)
    a[to] = move.taken and from_api(move.taken) or false
    if move.piece.face == "king" then a[N + 1 + move.piece.owner] = from end
  elseif kind == "rotate" then
    a[from] = from_api(move.piece)
  end
  return a
end

-- Does the shared piece on square i cover both Kings (attack the one
-- while touching the other)?  That is what gives check.
function gufuu.covers(b, i)
  local p, k0, k1 = b[i], b[N + 1], b[N + 2]
  if not p or p.owner ~= 2 or not k0 or not k1 then return false end
  local set = REACH[p.face][p.dir][i]
  return (set[k0] and set[k1]) or false
end

-- The squares of the shared pieces covering both Kings.
function gufuu.checkers(b)
  local list = {}
  for i = 1, N do
    if gufuu.covers(b, i) then list[#list + 1] = i end
  end
  return list
end

-- Does some shared piece cover both Kings?
function gufuu.any_covers(b)
  for i = 1, N do
    if gufuu.covers(b, i) then return true end
  end
  return false
end
