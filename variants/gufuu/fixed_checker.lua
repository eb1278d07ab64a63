-- fixed_checker.lua: a piece that gives check belongs to the checking side
-- for the opponent's whole turn.  The side in check may not move, turn or
-- capture with it, and no move may leave it covering both Kings; its King
-- may not take it either (shared_capture.lua offers no such capture).
-- The other shared piece may take it, unless that one gives check too:
-- with two checkers only a King step can answer.  A drop never answers a
-- check (no_drop_check.lua).  Asked only when the mover was in check.
local N, INDEX, covers, from_api = gufuu.N, gufuu.INDEX, gufuu.covers, gufuu.from_api
local CODE, mask = gufuu.CODE, gufuu.mask
-- the board code (common.lua): the fields this rule reads
local ZR <const>, AR <const>, K0B <const>, K1B <const> = 15, 21, 27, 33
local ODD <const>, KINGS <const> = 0x7ff6, 0x240
gufuu.check_fields{ZR = ZR, AR = AR, K0B = K0B, K1B = K1B, ODD = ODD, KINGS = KINGS}

-- pos:occupied, looked up once (as in common.lua)
local occupied
occupied = function(pos)
  occupied = pos.occupied
  return occupied(pos)
end

-- The rule on any board: the board after the move (gufuu.scan) and the
-- move's pieces.
local function general(pos, move)
  -- A turn or a step that takes nothing and moves no King leaves the
  -- Kings where they were and the checking pieces on the board: each of
  -- them still gives check (or is the piece that moved).
  local kind, piece = move.kind, move.piece
  local king = piece.face == "king"
  if kind == "rotate" or (kind == "move" and not king) then
    return true
  end
  -- A King's step or capture, or a capture by a shared piece.  The
  -- board before the move is the board after it but on the move's two
  -- squares (and the King's square, when a King moved); a piece that
  -- gave check before may not be the one that moved, and may not stand
  -- as it stood and still cover both Kings.
  local after = gufuu.scan(pos)
  local from, to = INDEX[move.from], INDEX[move.to]
  local a0, a1 = after[N + 1], after[N + 2]
  local b0, b1 = a0, a1                     -- the Kings before the move
  if king then
    if piece.owner == 0 then b0 = from else b1 = from end
  end
  if not b0 or not b1 then return false end -- no King pair, no checker
  if piece.owner == 2 then                  -- did the capturer give check?
    local set = from_api(piece).reach[from]
    if set[b0] and set[b1] then return true end
  end
  local taken = move.taken
  if taken and taken.owner == 2 then        -- a checker taken, or still there?
    local was = from_api(taken)
    local set = was.reach[to]
    if set[b0] and set[b1] then
      local now = after[to]
      if now and now.face == was.face and now.dir == was.dir and covers(after, to) then
        return true
      end
    end
  end
  if not a0 or not a1 then return false end
  for sq = 1, N do                          -- the shared pieces the move left alone
    local p = after[sq]
    if p and p.owner == 2 and sq ~= from and sq ~= to then
      local set = p.reach[sq]
      if set[b0] and set[b1] and set[a0] and set[a1] then return true end
    end
  end
  return false
end

-- What the rule needs of a move, worked out once for each move table (the
-- engine keeps one read-only table per move, so the same tables come back
-- position after position):
--   true   refused whatever the board (a turn, a step of a shared piece);
--   {from = mask}  a King's step or capture from that square: refused
--          when a shared piece covers both Kings before and after it,
--          that is the Kings now and the square the King left;
--   {reach = mask, left = field}  a capture of the shared Kaze by the
--          shared Arashi or the other way round: refused when the
--          capturer covered both Kings before it (its reach from where it
--          stood), or a piece of the taken one's face was left covering
--          them (the board code's field `left`; none in a game);
--   false  anything else (a shared King, ...): the general way.
local FIELD = {kaze = ZR, arashi = AR}      -- a shared piece's reach field
local function record(move)
  local kind, piece = move.kind, move.piece
  local king = piece.face == "king"
  if kind == "rotate" or (kind == "move" and not king) then return true end
  local from = INDEX[move.from]
  if king and piece.owner ~= 2 then return {from = 1 << (from - 1)} end
  local taken = move.taken
  if kind == "capture" and piece.owner == 2 and taken and taken.owner == 2 and
     FIELD[piece.face] and FIELD[taken.face] and taken.face ~= piece.face then
    return {reach = mask(from_api(piece).reach[from]), left = FIELD[taken.face]}
  end
  return false
end
-- weak keys: a move table the engine drops takes its record with it
local RECORD = setmetatable({}, {__mode = "k"})

effect{
  name = "fixed-checker",
  veto_kinds = {"move", "capture", "rotate"},
  veto_checked = true,
  veto = function(pos, move)
    local r = RECORD[move]
    if r == nil then
      r = record(move)
      RECORD[move] = r
    end
    if r == true then return true end
    if not r then return general(pos, move) end
    local i1, t1, i2, t2, i3, t3, i4, t4, extra = occupied(pos)   -- gufuu.code
    local CODE, c = CODE, nil
    if t4 then
      if not extra then c = CODE[t1][i1] + CODE[t2][i2] + CODE[t3][i3] + CODE[t4][i4] end
    elseif t3 then
      c = CODE[t1][i1] + CODE[t2][i2] + CODE[t3][i3]
    end
    if not c or (c & ODD) ~= KINGS then return general(pos, move) end
    local kings = (c >> K0B | c >> K1B) & 63
    local from = r.from
    if from then                              -- a King's step or capture
      local need = kings | from
      return (c >> ZR & need) == need or (c >> AR & need) == need
    end
    return (r.reach & kings) == kings or (c >> r.left & kings) == kings
  end,
}
