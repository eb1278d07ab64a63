-- face_to_face.lua: the Kings may stand side by side but never face to
-- face; a ply after which they do is illegal, whoever made it.  Option
-- face_to_face:
--   both   (default) orthogonally adjacent, each facing the other;
--   either orthogonally adjacent, at least one facing the other;
--   line   on one rank or file at any distance with nothing between,
--          each facing the other.
-- Diagonal neighbours never face each other.
--
-- Side by side, only a King's own step, turn or drop can change what
-- faces what, and the question is then about that King and the other
-- one: the King's token on the move's square (after the move: where it
-- stands, how it faces) says which square it faces and which tokens of
-- the other King there, or next to it, face it back.  That is worked out
-- here for every King token and square, so the hook reads one to three
-- squares.  (On a board with two Kings of a side, which no game reaches,
-- the moved King and any King of the other side count.)  On a line any
-- piece leaving the squares between can, so the hook reads the board, up
-- to the second King.
local reading = rules.face_to_face
local N, FILES, RANKS, NAME = gufuu.N, rules.files, rules.ranks, gufuu.NAME
local VEC = {[0] = {0, 1}, {1, 0}, {0, -1}, {-1, 0}}   -- n e s w
local DIR_NAME = {[0] = "n", "e", "s", "w"}

-- The token of side o's King facing dir.
local function king_token(o, dir) return (o == 0 and "K@" or "k@") .. DIR_NAME[dir] end

-- The square one step from i toward dir, or nil off the board.
local function step(i, dir)
  local f, r = (i - 1) % FILES + VEC[dir][1], (i - 1) // FILES + VEC[dir][2]
  if f < 0 or f >= FILES or r < 0 or r >= RANKS then return nil end
  return 1 + f + r * FILES
end

-- NEAR[tok][i]: for the King `tok` on square i, a list of {square name,
-- set of the other King's tokens there that make the two face to face}
-- (side by side only).
local NEAR = {}
if reading ~= "line" then
  for o = 0, 1 do
    for dir = 0, 3 do
      local tok, by_sq = king_token(o, dir), {}
      for i = 1, N do
        local list = {}
        for d = 0, 3 do
          local j = step(i, d)
          if j then
            local set = {}
            for e = 0, 3 do
              local looks0 = d == dir             -- this King faces j
              local looks1 = e == (d + 2) % 4     -- the other faces back
              local hit = looks0 and looks1
              if reading == "either" then hit = looks0 or looks1 end
              if hit then set[king_token(1 - o, e)] = true end
            end
            if next(set) then list[#list + 1] = {NAME[j], set} end
          end
        end
        by_sq[NAME[i]] = list
      end
      NEAR[tok] = by_sq
    end
  end
end

-- pos:token as a plain function, looked up once (as in common.lua)
local token
token = function(pos, sq)
  token = pos.token
  return token(pos, sq)
end

local veto
if reading == "both" then
  -- FACED[tok][sq]: the one square the King faces from sq and the token
  -- of the other King there that faces it back (NEAR's single entry), or
  -- nil; the default reading asks it some 90,000 times a solve.
  local FACED = {}
  for tok, by_sq in pairs(NEAR) do
    FACED[tok] = {}
    for sq, list in pairs(by_sq) do
      local e = list[1]
      if e then FACED[tok][sq] = {e[1], next(e[2])} end
    end
  end
  veto = function(pos, move)
    local at = move.to
    local faced = FACED[token(pos, at)]       -- nil: not a King (never here)
    local e = faced and faced[at]
    if not e then return false end
    return token(pos, e[1]) == e[2]
  end
elseif reading == "either" then
  veto = function(pos, move)
    local at = move.to
    local near = NEAR[token(pos, at)]         -- nil: not a King (never here)
    if not near then return false end
    local list = near[at]
    for k = 1, #list do
      local e = list[k]
      if e[2][token(pos, e[1])] then return true end
    end
    return false
  end
else
  -- RAY[i][dir]: the squares from i toward dir, nearest first.
  local RAY = {}
  for i = 1, N do
    RAY[i] = {}
    for dir = 0, 3 do
      local ray, j = {}, step(i, dir)
      while j do ray[#ray + 1] = j; j = step(j, dir) end
      RAY[i][dir] = ray
    end
  end
  -- Squares are read in board order and the Kings' order is the board
  -- order too, so when the second King turns up every square between
  -- them has been read: the rest of the board does not matter.
  local ROLE, DIR, seen = gufuu.ROLE, {}, {}
  for tok, p in pairs(gufuu.PIECE) do DIR[tok] = p.dir end
  local function general(b)                  -- any board: gufuu.read's
    local k0, k1 = b[N + 1], b[N + 2]
    if not k0 or not k1 then return false end
    local dir = b[k0].dir
    if b[k1].dir ~= (dir + 2) % 4 then return false end
    local ray = RAY[k0][dir]                  -- King 0 looks along it
    for k = 1, #ray do
      local j = ray[k]
      if j == k1 then return true end
      if b[j] then return false end           -- something between
    end
    return false
  end
  veto = function(pos, move)
    local ka, ta, kb, tb
    for i = 1, N do
      local tok = token(pos, i)
      seen[i] = tok or false
      if tok then
        local role = ROLE[tok]
        if role == 0 or role == 1 then
          if not ka then
            ka, ta = i, tok
          elseif ROLE[ta] ~= role then
            kb, tb = i, tok
            break
          else                                -- two Kings of a side
            return general(gufuu.read(pos))
          end
        end
      end
    end
    if not kb then return false end
    local dir = DIR[ta]
    if DIR[tb] ~= (dir + 2) % 4 then return false end
    local ray = RAY[ka][dir]
    for k = 1, #ray do
      local j = ray[k]
      if j == kb then return true end
      if seen[j] then return false end        -- something between
    end
    return false
  end
end

effect{
  name = "face-to-face",
  veto_faces = reading ~= "line" and {"king"} or nil,
  -- side by side: only when the other King stands orthogonally next to
  -- the moved one (diagonal neighbours never face each other)
  veto_count = reading ~= "line" and {on = "royal", faces = {"king"}, owner = "opponent"} or nil,
  -- the position after the move decides (where the Kings stand and face),
  -- so the engine asks once for each such position
  veto_pure = true,
  veto = veto,
}
