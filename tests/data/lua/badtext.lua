-- Format texts a record could not read back, and texts two moves share;
-- variable 1 picks the case (tests/unit/test_script.c, test_format_texts).
local texts = {"1-0", "{x", "[Foo", "1.", "12...", "...", "*", "0-1", "1/2-1/2",
               "a{b", "ok}", string.rep("x", 128), "same", "e1-e2", "fine"}

effect{
  name = "label",
  moves = function(pos)
    local c = pos:var(1)
    if c == 0 then return nil end
    if c == 13 then -- two effect moves that the hook names alike
      return {{kind = "effect", from = "a2"}, {kind = "effect", from = "e1"}}
    end
    return {{kind = "effect", from = "a2"}}
  end,
  apply = function(pos, move) return false end,
  format = function(pos, move) return texts[pos:var(1)] end,
}

-- A suffix on the king step e1-d1 tagged with this effect: variable 2
-- picks "+" (1), "{x" (2), a text of 128 bytes (3), or no suffix (4), so
-- that the tagged step reads "e1-d1" like the untagged one beside it.
effect{
  name = "tag",
  moves = function(pos)
    local c = pos:var(2)
    if c == 0 then return nil end
    return {{kind = "move", from = "e1", to = "d1", effect = "tag"}}
  end,
  after = function(pos, move) return move.effect == "tag" end,
  format = function(pos, move)
    local c = pos:var(2)
    if move.effect ~= "tag" then return nil end
    if c == 1 then return "+" end
    if c == 2 then return "{x" end
    if c == 3 then return string.rep("y", 128) end
  end,
}

-- A result whose reason holds a newline (variable 3 = 1): a record keeps a
-- reason on one line.
effect{
  name = "ender",
  result = function(pos)
    if pos:var(3) == 1 then return "0", "line\nbreak" end
  end,
}
