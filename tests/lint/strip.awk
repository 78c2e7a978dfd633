# strip.awk — C source without comments, line numbers kept: prints
# "FILE<TAB>LINE<TAB>TEXT" for every line of every input file. With
# -v nostrings=1, string and character literals become "" and 0 too.
# A comment between lines keeps the lines (a block comment's lines come
# out empty), so LINE is the source's.
FNR == 1 { incomment = 0 }
{
  s = $0; out = ""; i = 1; n = length(s)
  while (i <= n) {
    c = substr(s, i, 1); c2 = substr(s, i, 2)
    if (incomment) {
      if (c2 == "*/") { incomment = 0; i += 2; out = out " " } else i++
      continue
    }
    if (c2 == "/*") { incomment = 1; i += 2; continue }
    if (c2 == "//") break
    if (c == "\"" || c == "'") {
      q = c; j = i + 1
      while (j <= n) { d = substr(s, j, 1); if (d == "\\") { j += 2; continue } if (d == q) break; j++ }
      lit = substr(s, i, j - i + 1)
      out = out (nostrings ? (q == "\"" ? "\"\"" : "0") : lit)
      i = j + 1; continue
    }
    out = out c; i++
  }
  print FILENAME "\t" FNR "\t" out
}
