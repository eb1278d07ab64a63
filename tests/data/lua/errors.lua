-- Hostile: an error inside every hook kind; variable 1 picks the hook.
local codes = {moves = 1, veto = 2, after = 3, tier = 4, drop_ok = 5, result = 6, apply = 7, format = 8}
local function boom(pos, hook)
  if pos:var(1) == codes[hook] then error("boom in " .. hook) end
end

effect{
  name = "errors",
  moves = function(pos) boom(pos, "moves") return {{kind = "effect", from = "a1"}} end,
  veto = function(pos, move) boom(pos, "veto") return false end,
  after = function(pos, move) boom(pos, "after") return false end,
  tier = function(pos, sq, index, tier) boom(pos, "tier") end,
  drop_ok = function(pos, piece, sq) boom(pos, "drop_ok") return true end,
  result = function(pos) boom(pos, "result") end,
  apply = function(pos, move) boom(pos, "apply") return false end,
  format = function(pos, move) boom(pos, "format") return "boom@" .. move.from end,
}
