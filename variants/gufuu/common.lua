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
-- Speed.  The solver runs these hooks about two million times, and each
-- Lua instruction also pays for the engine's instruction budget, so what
-- does not depend on the position is worked out here, once: every
-- token's piece with its pattern turned to its facing (p.reach[i]: the
-- set of squares it reaches from square i; p.list[i]: the same squares
-- as a list).  The hooks read the board into a scratch board
-- (gufuu.scan) or into locals instead of building tables.
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
-- for any other piece); SHARED[tok]: a shared piece's p.reach; TLIST[tok]:
-- any piece's p.list.  The hooks that run for every position look tokens up
-- there, one table each, instead of reading a piece's fields.
local BY_API, ROLE, SHARED, TLIST = {}, {}, {}, {}
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
        ROLE[tok], SHARED[tok] = 2, p.reach
      elseif face == "king" then
        ROLE[tok] = owner
      end
      TLIST[tok] = p.list
    end
  end
end
gufuu.PIECE, gufuu.ROLE, gufuu.SHARED, gufuu.TLIST = PIECE, ROLE, SHARED, TLIST

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

-- The same question straight from the position, with no table: the check
-- hook asks it for every position the engine tests.  pos:occupied() gives
-- each occupied square and its token in one call.  A Gufuu board holds a
-- King a side and at most two shared pieces; a board no game reaches (a
-- fifth piece, two Kings of a side, an owned Kaze) takes the general way.
local any_covers, read = gufuu.any_covers, gufuu.read
function gufuu.contact(pos)
  local i1, t1, i2, t2, i3, t3, i4, t4, extra = pos:occupied()
  local r1, r2, r3, r4 = ROLE[t1], ROLE[t2], ROLE[t3], ROLE[t4]
  if extra or (t1 and not r1) or (t2 and not r2) or (t3 and not r3) or (t4 and not r4) then
    return any_covers(read(pos))
  end
  local k0, k1, kings = nil, nil, 0
  if r1 == 0 then k0, kings = i1, kings + 1 elseif r1 == 1 then k1, kings = i1, kings + 1 end
  if r2 == 0 then k0, kings = i2, kings + 1 elseif r2 == 1 then k1, kings = i2, kings + 1 end
  if r3 == 0 then k0, kings = i3, kings + 1 elseif r3 == 1 then k1, kings = i3, kings + 1 end
  if r4 == 0 then k0, kings = i4, kings + 1 elseif r4 == 1 then k1, kings = i4, kings + 1 end
  if not (k0 and k1) then return false end
  if kings > 2 then return any_covers(read(pos)) end
  local set = SHARED[t1]                     -- a shared piece's reach from its square
  if set then set = set[i1]; if set[k0] and set[k1] then return true end end
  set = SHARED[t2]
  if set then set = set[i2]; if set[k0] and set[k1] then return true end end
  set = SHARED[t3]
  if set then set = set[i3]; if set[k0] and set[k1] then return true end end
  set = SHARED[t4]
  if set then set = set[i4]; if set[k0] and set[k1] then return true end end
  return false
end
