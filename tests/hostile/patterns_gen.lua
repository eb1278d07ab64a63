-- Writes tests/hostile/lua/patterns.lua: each call below with the results
-- of the stock Lua 5.4 string library, which the sandbox's own find,
-- match, gmatch and gsub must reproduce (engine/src/script.c).  Run it with
-- a stock interpreter, outside tiers:
--   lua5.4 tests/hostile/patterns_gen.lua > tests/hostile/lua/patterns.lua
local calls = {
  {"find", "hello world", "o w"},
  {"find", "hello world", "l+"},
  {"find", "hello world", "l+", 5},
  {"find", "hello world", "o", -3},
  {"find", "hello world", "xyz"},
  {"find", "a.b", ".", 1, true},
  {"find", "a+b", "+"},
  {"find", "abc", "", 10},
  {"find", "abc", "", 4},
  {"find", "abc", "b()"},
  {"find", "key = val", "(%w+)%s*=%s*(%w+)"},
  {"match", "  trim me  ", "^%s*(.-)%s*$"},
  {"match", "e10", "^(%a)(%d+)$"},
  {"match", "K@n", "^(%*?)(%u)@?([nesw]?)$"},
  {"match", "f(a(b)c)d", "%b()"},
  {"match", "THE (quick) fox", "%f[%a]%a+"},
  {"match", "hello", "()ll()"},
  {"match", "hello", "(h)(e)(l)%3(o)"},
  {"match", "x\0y", "%z"},
  {"match", "date 2024-05-01", "(%d+)-(%d+)-(%d+)"},
  {"match", "[tag]", "^%[(.*)%]$"},
  {"match", "a-c", "[a-]+"},
  {"match", "]]x", "[]]+"},
  {"match", "abc]", "[^]]+"},
  {"match", "AbC1_", "[%u%d_]+"},
  {"match", "hello", ".-l"},
  {"match", "hello", ".*l"},
  {"match", "$100", "%$(%d+)"},
  {"match", "end$", "d%$$"},
  {"match", "aaa", "^(a-)a$"},
  {"match", ("a"):rep(300), ("a?"):rep(200)},
  {"match", "abc", "[a-"},
  {"match", "abc", "%"},
  {"match", "abc", "(()"},
  {"match", "abc", "a)"},
  {"match", "abc", "%1"},
  {"match", "abc", "%f"},
  {"match", "abc", "%b"},
  {"match", ("a"):rep(40), ("(a)"):rep(33)},
  {"gsub", "hello world", "o", "0"},
  {"gsub", "hello world", "(%w+)", "<%1>"},
  {"gsub", "hello world", "%w+", "%0 %0", 1},
  {"gsub", "hello world", "()(o)()", "%1-%2-%3"},
  {"gsub", "hello world", "", "-"},
  {"gsub", "hello world", "%w*", "<%0>"},
  {"gsub", "abc", "^", "x"},
  {"gsub", "abc", "$", "x"},
  {"gsub", "a.b.c", "%.", "%%"},
  {"gsub", "abc", "%w", {a = "1", b = true}},
  {"gsub", "abc", "%w", {a = "1", b = false}},
  {"gsub", "$x, $y", "%$(%w+)", {x = 1, y = 2.5}},
  {"gsub", "abc", "b", "%9"},
  {"gsub", "abc", "b", "%"},
  {"gsub", "abc", "b", "%x"},
  {"gsub", "abc", "b"},
  {"gsub", 12345, 3, 9},
  {"gmatch", "one two  three", "%a+"},
  {"gmatch", "k=v, a=b", "(%w+)=(%w+)"},
  {"gmatch", "abc", ""},
  {"gmatch", "^a^a", "^a"},
  {"gmatch", "abcd", ".", 3},
  {"gmatch", "abcd", "()", -2},
}
local function lit(v)
  if type(v) == "string" and #v > 60 then
    for len = 1, 4 do
      local u = v:sub(1, len)
      if #v % len == 0 and u:rep(#v // len) == v then
        return ("(%q):rep(%d)"):format(u, #v // len)
      end
    end
  end
  if type(v) == "string" then return (("%q"):format(v):gsub("\\\n", "\\n"))
  elseif type(v) == "number" then
    if math.type(v) == "integer" then return tostring(v) end
    return ("%.17g"):format(v)
  elseif type(v) == "table" then
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys)
    local out = {}
    for _, k in ipairs(keys) do out[#out + 1] = "[" .. lit(k) .. "] = " .. lit(v[k]) end
    return "{" .. table.concat(out, ", ") .. "}"
  else return tostring(v) end
end
local function list(t, n)
  local out = {}
  for i = 1, n do out[i] = lit(t[i]) end
  return "{" .. table.concat(out, ", ") .. "}"
end
local function run(c)
  if c[1] == "gmatch" then
    local got = {}
    local it = string.gmatch(c[2], c[3], c[4])
    for k = 1, 10 do
      local r = table.pack(pcall(it))
      if not r[1] then got[#got + 1] = "error: " .. r[2] break end
      if r[2] == nil then break end
      got[#got + 1] = table.concat({table.unpack(r, 2, r.n)}, ",")
    end
    return {true, table.concat(got, "|")}, 2
  end
  local r = table.pack(pcall(string[c[1]], table.unpack(c, 2, 6)))
  return r, r.n
end
local out = {}
local function w(s) out[#out + 1] = s end
w("-- Generated from the stock Lua 5.4 string library: each call of the")
w("-- sandbox's own find, match, gmatch and gsub must give what Lua's gives")
w("-- (tests/unit/test_script.c loads this file; a difference fails the load).")
w("local cases = {")
for i, c in ipairs(calls) do
  local want, n = run(c)
  local nargs = 6
  while nargs > 1 and c[nargs] == nil do nargs = nargs - 1 end
  w(("  {%s, %s, %d},"):format(list(c, nargs), list(want, n), n))
end
w("}")
w([==[
local function show(t, n)
  local out = {}
  for i = 1, n do out[i] = type(t[i]) == "string" and ("%q"):format(t[i]) or tostring(t[i]) end
  return table.concat(out, ", ")
end
for i, c in ipairs(cases) do
  local call, want, count = c[1], c[2], c[3]
  local got, n
  if call[1] == "gmatch" then
    local seen = {}
    local it = string.gmatch(call[2], call[3], call[4])
    for k = 1, 10 do
      local r = table.pack(pcall(it))
      if not r[1] then seen[#seen + 1] = "error: " .. r[2] break end
      if r[2] == nil then break end
      seen[#seen + 1] = table.concat({table.unpack(r, 2, r.n)}, ",")
    end
    got, n = {true, table.concat(seen, "|")}, 2
  else
    got = table.pack(pcall(string[call[1]], table.unpack(call, 2, 6)))
    n = got.n
  end
  local same = n == count
  for k = 1, n do
    same = same and got[k] == want[k] and math.type(got[k]) == math.type(want[k])
  end
  if not same then
    error(("pattern case %d (string.%s): got %s, Lua gives %s"):format(i, call[1],
          show(got, n), show(want, count)))
  end
end
effect{name = "patterns"}]==])
print(table.concat(out, "\n"))
