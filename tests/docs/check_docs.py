#!/usr/bin/env python3
"""The front door's rules, checked on a tree (default: the checkout).

  check_docs.py [ROOT]

- README.md is at most 16 KiB;
- every relative link of README.md, and of every Markdown file reached
  from it through relative links, names a file or folder that exists, and
  its #anchor (if any) a heading of that Markdown file (GitHub's slugs);
- README.md and docs/*.md name no issue numbers ("issue 12");
- every section of the README as it was before the manual
  (tests/docs/homes.txt: "heading<TAB>file") is in a file reached from
  README.md, its heading text there.
One line per problem on stderr, exit 1 when there is any; 0 and one line
of counts otherwise.
"""
import os, re, sys, unicodedata

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                       os.path.join(os.path.dirname(__file__), '..', '..'))
HOMES = os.path.join(ROOT, 'tests', 'docs', 'homes.txt')
README_MAX = 16 * 1024
LINK = re.compile(r'(?<!\!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
problems = []

def rel(p):
    return os.path.relpath(p, ROOT)

def strip_code(text):
    """Text without fenced blocks and inline code (links there are not links)."""
    text = re.sub(r'^```.*?^```', '', text, flags=re.S | re.M)
    return re.sub(r'`[^`\n]*`', '', text)

def slug(heading):
    """GitHub's anchor for a heading's text."""
    h = heading.strip().lower()
    h = re.sub(r'[`*_]', '', h)
    h = ''.join(c for c in h if c in '- ' or unicodedata.category(c)[0] in 'LN')
    return h.replace(' ', '-')

def anchors(path):
    seen, out = {}, set()
    text = re.sub(r'^```.*?^```', '', open(path, encoding='utf-8').read(), flags=re.S | re.M)
    for m in re.finditer(r'^#{1,6}\s+(.*?)\s*#*\s*$', text, flags=re.M):
        s = slug(m.group(1))
        n = seen.get(s, 0)
        seen[s] = n + 1
        out.add(s if n == 0 else '%s-%d' % (s, n))
    return out

def links(path):
    for m in LINK.finditer(strip_code(open(path, encoding='utf-8').read())):
        target = m.group(1)
        if re.match(r'^[a-z][a-z0-9+.-]*:', target) or target.startswith('//'):
            continue                       # a URL, mailto:, ...
        yield target

readme = os.path.join(ROOT, 'README.md')
size = os.path.getsize(readme)
if size > README_MAX:
    problems.append('README.md: %d bytes, more than %d' % (size, README_MAX))

reached, todo, nlinks = set(), [readme], 0
while todo:
    md = todo.pop()
    if md in reached:
        continue
    reached.add(md)
    for target in links(md):
        nlinks += 1
        path, _, frag = target.partition('#')
        dest = md if not path else os.path.normpath(os.path.join(os.path.dirname(md), path))
        if not dest.startswith(ROOT + os.sep) and dest != ROOT:
            problems.append('%s: link %s leaves the checkout' % (rel(md), target))
            continue
        if not os.path.exists(dest):
            problems.append('%s: link %s: no such file' % (rel(md), target))
            continue
        if frag:
            if not dest.endswith('.md') or frag not in anchors(dest):
                problems.append('%s: link %s: no heading #%s in %s' % (rel(md), target, frag, rel(dest)))
                continue
        if dest.endswith('.md') and os.path.isfile(dest):
            todo.append(dest)

ISSUE = re.compile(r'\bissues? \d+', re.I)   # ours; upstream's are '#N'
front = [readme] + sorted(os.path.join(ROOT, 'docs', f) for f in os.listdir(os.path.join(ROOT, 'docs'))
                          if f.endswith('.md'))
for md in front:
    for n, line in enumerate(open(md, encoding='utf-8'), 1):
        m = ISSUE.search(line)
        if m:
            problems.append('%s:%d: names an issue number ("%s"): say what it is instead' % (rel(md), n, m.group(0)))
    if md != readme and md not in reached:
        problems.append('%s: no link from README.md reaches it' % rel(md))

nhomes = 0
for n, line in enumerate(open(HOMES, encoding='utf-8'), 1):
    line = line.rstrip('\n')
    if not line or line.startswith('#'):
        continue
    heading, _, home = line.partition('\t')
    nhomes += 1
    dest = os.path.join(ROOT, home)
    if dest not in reached:
        problems.append('homes.txt:%d: %s: %s is not reached from README.md' % (n, heading, home))
    elif heading not in open(dest, encoding='utf-8').read():
        problems.append('homes.txt:%d: the section "%s" is not in %s' % (n, heading, home))

for p in problems:
    print('check_docs: ' + p, file=sys.stderr)
if problems:
    sys.exit(1)
print('check_docs: README.md %d bytes; %d files reached, %d links resolved; %d old sections found in their homes'
      % (size, len(reached), nlinks, nhomes))
