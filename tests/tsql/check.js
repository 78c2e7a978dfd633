#!/usr/bin/env node
/*
 * Parses T-SQL texts with grammars-v4's TSqlParser (the ANTLR grammar, as
 * generated for the antlr4ts runtime by the npm package antlr4ts-sql) and
 * lints them for what SQL Server 2014 (12.x) lacks or refuses, so that one
 * text serves 2014 through 2022. Used by tests/tsql/check.sh.
 *
 *   node check.js --counts FILE DUMPDIR   check every DUMPDIR/<name>.sql
 *                                         against FILE's counts
 *   node check.js --self-test FILE        every record's findings must be
 *                                         exactly its expect= rules
 *
 * Input: records as bin/test_dialect writes them with TSQL_DUMP=DIR, each
 * a line "-- tsql <how> <where>[ expect=<rule>,...]" and the text on the
 * lines after it; <how> is prepared, direct or bulk. Prints one line per
 * finding, "<file>:<record> (<how> <where>) <rule>: <message>", and exits
 * 1 if there is any (or a count differs), 2 on bad usage or input.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { CharStreams, CommonTokenStream, Token } = require('antlr4ts');
const { TSqlLexer } = require('antlr4ts-sql/dist/src/grammar-output/tsql/TSqlLexer');
const { TSqlParser } = require('antlr4ts-sql/dist/src/grammar-output/tsql/TSqlParser');
const { CaseChangingStream } = require('antlr4ts-sql/dist/src/models/CaseChangingStream');

/* --- reading records ------------------------------------------------------ */

/* `comments`: lines starting with "#" between records are comments (the
 * self-test's; a dump has none). */
function readRecords(file, comments) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const recs = [];
    let cur = null;
    for (let i = 0; i < lines.length; i++) {
        const m = /^-- tsql (prepared|direct|bulk) (\S+(?: \S+)*?)(?: expect=(\S+))?$/.exec(lines[i]);
        if (m) {
            cur = { how: m[1], where: m[2], expect: m[3] ? m[3].split(',').sort() : null, lines: [], line: i + 1 };
            recs.push(cur);
        } else if (comments && lines[i].startsWith('#')) {
            cur = null;
        } else if (cur) {
            cur.lines.push(lines[i]);
        } else if (lines[i] !== '') {
            throw new Error(`${file}:${i + 1}: text before the first "-- tsql" record`);
        }
    }
    for (const r of recs) {
        while (r.lines.length && r.lines[r.lines.length - 1] === '')
            r.lines.pop();
        r.sql = r.lines.join('\n');
    }
    return recs;
}

/* ODBC parameter markers (?) as T-SQL variables @P1, @P2, ... outside
 * strings, quoted names and comments: the grammar knows no markers. */
function markersToVariables(sql) {
    let out = '', n = 0;
    for (let i = 0; i < sql.length; i++) {
        const c = sql[i];
        const skipTo = (end) => {
            const j = sql.indexOf(end, i + 1);
            const k = j < 0 ? sql.length : j + end.length;
            out += sql.slice(i, k);
            i = k - 1;
        };
        if (c === "'") skipTo("'");
        else if (c === '"') skipTo('"');
        else if (c === '[') skipTo(']');
        else if (c === '-' && sql[i + 1] === '-') skipTo('\n');
        else if (c === '/' && sql[i + 1] === '*') skipTo('*/');
        else if (c === '?') out += '@P' + ++n;
        else out += c;
    }
    return { sql: out, markers: n };
}

/* --- parsing -------------------------------------------------------------- */

/* The source text of a token or of a parse-tree node: the case-changing
 * stream leaves tokens without text of their own. */
function srcOf(sql, node) {
    const tok = typeof node.startIndex === 'number';
    const a = tok ? node.startIndex : node.start.startIndex;
    const b = tok ? node.stopIndex : node.stop ? node.stop.stopIndex : -1;
    return a >= 0 && b >= a ? sql.slice(a, b + 1) : '';
}

function parse(sql) {
    const errors = [];
    const lines = sql.split('\n');
    /* the message's own quoting of the input is empty (see srcOf): say where */
    const listener = {
        syntaxError: (r, o, line, col, msg) => {
            const at = (lines[line - 1] || '').slice(col, col + 40);
            let m = msg.replace(/ at input ''| at: ''|'' /g, ' ').replace(/'<-?\d+>' ?/g, '').trim();
            if (m.length > 100)
                m = m.slice(0, 97) + '...';
            errors.push(`line ${line}:${col} ${m} near "${at}"`);
        },
    };
    const lexer = new TSqlLexer(new CaseChangingStream(CharStreams.fromString(sql), true));
    lexer.removeErrorListeners();
    lexer.addErrorListener(listener);
    const tokens = new CommonTokenStream(lexer);
    const parser = new TSqlParser(tokens);
    parser.removeErrorListeners();
    parser.addErrorListener(listener);
    const tree = parser.tsql_file();
    tokens.fill();
    const toks = tokens.getTokens().filter((t) => t.channel === Token.DEFAULT_CHANNEL && t.type !== Token.EOF)
        .map((t) => ({ type: t.type, text: srcOf(sql, t) }));
    return { tree, errors, toks };
}

function walk(node, fn) {
    fn(node);
    for (let i = 0; i < node.childCount; i++)
        walk(node.getChild(i), fn);
}

const ctxName = (node) => node.constructor.name;

/* The statements of a text at its top level (a batch's statements and
 * batch-level statements such as CREATE PROCEDURE). */
function topStatements(tree) {
    let n = 0;
    for (let i = 0; i < tree.childCount; i++) {
        const b = tree.getChild(i);
        if (ctxName(b) !== 'BatchContext')
            continue;
        walk(b, (x) => {
            const k = ctxName(x);
            if ((k === 'Sql_clausesContext' || k === 'Batch_level_statementContext') &&
                !hasAncestor(x, ['Sql_clausesContext', 'Batch_level_statementContext']))
                n++;
        });
    }
    return n;
}

function hasAncestor(node, names) {
    for (let p = node.parent; p; p = p.parent)
        if (names.includes(ctxName(p)))
            return true;
    return false;
}

/* --- the lint: what SQL Server 2014 lacks or refuses ------------------------ */

/* Functions SQL Server 2014 does not have, and the version that added them. */
const NEWER_FUNCTIONS = {
    STRING_SPLIT: '2016', OPENJSON: '2016', JSON_VALUE: '2016', JSON_QUERY: '2016', JSON_MODIFY: '2016',
    ISJSON: '2016', STRING_ESCAPE: '2016', COMPRESS: '2016', DECOMPRESS: '2016', DATEDIFF_BIG: '2016',
    SESSION_CONTEXT: '2016',
    STRING_AGG: '2017', TRIM: '2017', CONCAT_WS: '2017', TRANSLATE: '2017',
    APPROX_COUNT_DISTINCT: '2019',
    GREATEST: '2022', LEAST: '2022', DATE_BUCKET: '2022', DATETRUNC: '2022', GENERATE_SERIES: '2022',
    JSON_OBJECT: '2022', JSON_ARRAY: '2022', JSON_PATH_EXISTS: '2022', APPROX_PERCENTILE_CONT: '2022',
    APPROX_PERCENTILE_DISC: '2022', LEFT_SHIFT: '2022', RIGHT_SHIFT: '2022', BIT_COUNT: '2022',
    GET_BIT: '2022', SET_BIT: '2022',
};

/* Keyword sequences SQL Server 2014 refuses (after the DROP/CREATE rules). */
const NEWER_SYNTAX = [
    [['AT', 'TIME', 'ZONE'], 'AT TIME ZONE needs SQL Server 2016'],
    [['IS', 'DISTINCT', 'FROM'], 'IS DISTINCT FROM needs SQL Server 2022'],
    [['IS', 'NOT', 'DISTINCT', 'FROM'], 'IS NOT DISTINCT FROM needs SQL Server 2022'],
    [['SYSTEM_VERSIONING'], 'temporal tables (SYSTEM_VERSIONING) need SQL Server 2016'],
    [['GENERATED', 'ALWAYS'], 'GENERATED ALWAYS columns need SQL Server 2016'],
    [['MASKED', 'WITH'], 'dynamic data masking needs SQL Server 2016'],
    [['ENCRYPTED', 'WITH'], 'Always Encrypted columns need SQL Server 2016'],
    [['OPTIMIZE_FOR_SEQUENTIAL_KEY'], 'OPTIMIZE_FOR_SEQUENTIAL_KEY needs SQL Server 2019'],
    [['RESUMABLE'], 'resumable index operations need SQL Server 2017'],
];

const TXN_WORDS = ['BEGIN', 'COMMIT', 'ROLLBACK', 'SAVE'];

function lint(rec, parsed, text) {
    const out = [];
    const add = (rule, msg) => out.push({ rule, msg });
    const T = parsed.toks.map((t) => t.text.toUpperCase());
    const raw = parsed.toks.map((t) => t.text);

    for (let i = 0; i < T.length; i++) {
        /* DROP [kind [kind]] IF EXISTS, also ALTER TABLE ... DROP COLUMN|CONSTRAINT IF EXISTS */
        if (T[i] === 'DROP') {
            for (let j = i + 1; j <= i + 3 && j + 1 < T.length; j++) {
                if (T[j] === 'IF' && T[j + 1] === 'EXISTS') {
                    add('drop-if-exists', `${T.slice(i, j + 2).join(' ')} needs SQL Server 2016; 2014 refuses it ` +
                        `(write IF OBJECT_ID(N'name', N'U') IS NOT NULL DROP TABLE name, N'P' for a procedure)`);
                    break;
                }
                if (!/^[A-Z_]+$/.test(T[j]))
                    break;
            }
        }
        if (T[i] === 'CREATE' && T[i + 1] === 'OR' && T[i + 2] === 'ALTER')
            add('create-or-alter', 'CREATE OR ALTER needs SQL Server 2016 SP1');
        if (NEWER_FUNCTIONS[T[i]] && T[i + 1] === '(' && T[i - 1] !== '.')
            add('newer-function', `${T[i]}() needs SQL Server ${NEWER_FUNCTIONS[T[i]]}`);
        for (const [seq, msg] of NEWER_SYNTAX)
            if (seq.every((w, k) => T[i + k] === w))
                add('newer-syntax', msg);
        /* catalog names: a case-sensitive (binary) collation finds only
         * INFORMATION_SCHEMA.* in upper case and sys.* in lower case */
        if (T[i] === 'INFORMATION_SCHEMA' && T[i + 1] === '.') {
            if (raw[i] !== 'INFORMATION_SCHEMA' || raw[i + 2] !== T[i + 2])
                add('catalog-case', `${raw[i]}.${raw[i + 2]}: write INFORMATION_SCHEMA.${T[i + 2]} ` +
                    '(a case-sensitive collation does not find it otherwise)');
        }
        if (T[i] === 'SYS' && T[i + 1] === '.' && T[i - 1] !== '.' &&
            (raw[i] !== 'sys' || raw[i + 2] !== raw[i + 2].toLowerCase()))
            add('catalog-case', `${raw[i]}.${raw[i + 2]}: write sys.${raw[i + 2].toLowerCase()} ` +
                '(a case-sensitive collation does not find it otherwise)');
    }
    /* a view of INFORMATION_SCHEMA has upper-case columns (ROUTINE_NAME) */
    if (T.includes('INFORMATION_SCHEMA')) {
        parsed.toks.forEach((t, i) => {
            const viewName = T[i] === 'INFORMATION_SCHEMA' || T[i - 2] === 'INFORMATION_SCHEMA' && T[i - 1] === '.';
            if (t.type === TSqlLexer.ID && !viewName && raw[i] !== T[i])
                add('catalog-case', `${raw[i]}: INFORMATION_SCHEMA's columns are upper case (${T[i]})`);
        });
    }
    /* BEGIN alone opens a statement block in T-SQL, not a transaction */
    if (T.length === 1 && T[0] === 'BEGIN' || T.length === 2 && T[0] === 'BEGIN' && T[1] === ';')
        add('bare-begin', 'BEGIN alone is a statement block in T-SQL, not a transaction: write BEGIN TRANSACTION');
    /* a transaction statement prepared (SQLPrepare/SQLExecute) runs as an
     * RPC, and SQL Server raises 266 when an RPC changes @@TRANCOUNT */
    if (rec.how !== 'direct' && TXN_WORDS.includes(T[0]) &&
        (T[0] !== 'BEGIN' || ['TRAN', 'TRANSACTION', 'DISTRIBUTED'].includes(T[1])))
        add('prepared-transaction', `${T.join(' ')} prepared: SQL Server answers 266 when an RPC changes ` +
            '@@TRANCOUNT; end transactions with SQLEndTran (autocommit off)');
    /* at most 1,000 rows in an INSERT's VALUES (error 10738) */
    walk(parsed.tree, (x) => {
        if (ctxName(x) === 'Table_value_constructorContext' && hasAncestor(x, ['Insert_statementContext'])) {
            const rows = x.expression_list().length;
            if (rows > 1000)
                add('values-over-1000', `INSERT ... VALUES with ${rows} rows: SQL Server takes at most 1,000 ` +
                    '(error 10738)');
        }
    });
    /* each finding once per text */
    return out.filter((f, i) => out.findIndex((g) => g.rule === f.rule && g.msg === f.msg) === i);
}

/* --- one file ------------------------------------------------------------- */

/* Texts SQL Server 2014 takes that this snapshot of the grammar does not
 * parse: their parse errors are no finding, and a text of one that parses
 * is (a newer grammar: drop the gap). ALTER DATABASE's alter_database rule
 * here knows MODIFY NAME, COLLATE and SET, not MODIFY FILE ("ALTER
 * DATABASE (Transact-SQL) File and Filegroup Options"), which TPC-C's
 * prepare sends to pre-size the files. */
const GRAMMAR_GAPS = [
    { re: /^ALTER DATABASE \[[^\]]+\] MODIFY FILE \(NAME = \[[^\]]+\](, SIZE = \d+MB)?(, FILEGROWTH = \d+MB)?\)$/,
      what: 'ALTER DATABASE ... MODIFY FILE' },
];

const CALL = /^\{\s*CALL\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*\}$/is;

/* Every record of `file`: its findings (parse errors as rule "parse"), and
 * the counts of records and of top-level T-SQL statements parsed. */
function checkFile(file, comments) {
    const recs = readRecords(file, comments);
    const procs = new Map();    /* name -> parameter count, from CREATE PROCEDURE */
    const calls = [];
    let statements = 0;

    recs.forEach((rec, idx) => {
        rec.findings = [];
        rec.index = idx + 1;
        const call = CALL.exec(rec.sql.trim());
        let text = rec.sql;
        if (call) {
            /* an ODBC call escape: the driver sends it as an RPC of the
             * procedure; parse it as the EXECUTE it stands for */
            const args = call[2] && call[2].trim() !== '' ? call[2].split(',').map((a) => a.trim()) : [];
            calls.push({ rec, name: call[1], nargs: args.length });
            text = `EXECUTE ${call[1]} ${args.join(', ')}`;
        }
        const conv = markersToVariables(text);
        const parsed = parse(conv.sql);
        const gap = GRAMMAR_GAPS.find((g) => g.re.test(text));
        if (gap && parsed.errors.length === 0)
            rec.findings.push({ rule: 'parse', msg: `the grammar now parses ${gap.what}: drop its GRAMMAR_GAPS entry` });
        for (const e of gap ? [] : parsed.errors)
            rec.findings.push({ rule: 'parse', msg: e });
        const n = topStatements(parsed.tree);
        if (!gap && parsed.errors.length === 0 && n === 0)
            rec.findings.push({ rule: 'parse', msg: 'no statement parsed' });
        statements += gap ? 1 : n;     /* one statement, whatever the error recovery made of it */
        walk(parsed.tree, (x) => {
            if (ctxName(x) === 'Create_or_alter_procedureContext')
                procs.set(srcOf(conv.sql, x.func_proc_name_schema()).toUpperCase(), x.procedure_param().length);
        });
        rec.findings.push(...lint(rec, parsed, conv.sql));
    });
    for (const c of calls) {
        const want = procs.get(c.name.toUpperCase());
        if (want === undefined)
            c.rec.findings.push({ rule: 'call', msg: `{CALL ${c.name}}: no CREATE PROCEDURE ${c.name} in this file` });
        else if (want !== c.nargs)
            c.rec.findings.push({ rule: 'call', msg: `{CALL ${c.name}} passes ${c.nargs} arguments, the procedure takes ${want}` });
    }
    return { recs, statements };
}

function report(file, rec, f) {
    const first = rec.sql.split('\n')[0];
    console.log(`${path.basename(file)}:${rec.index} (${rec.how} ${rec.where}) ${f.rule}: ${f.msg}\n` +
        `    ${first.length > 120 ? first.slice(0, 117) + '...' : first}`);
}

/* --- main ----------------------------------------------------------------- */

function main(argv) {
    if (argv[0] === '--self-test' && argv.length === 2) {
        const { recs } = checkFile(argv[1], true);
        let bad = 0, good = 0, cases = 0;
        const rules = new Set();
        for (const rec of recs) {
            if (!rec.expect) {
                console.log(`${argv[1]}:${rec.line}: a self-test record needs expect=`);
                return 2;
            }
            cases++;
            const got = [...new Set(rec.findings.map((f) => f.rule))].sort();
            const want = rec.expect[0] === 'ok' ? [] : rec.expect;
            want.forEach((r) => rules.add(r));
            if (got.join(',') !== want.join(',')) {
                bad++;
                console.log(`self-test ${path.basename(argv[1])}:${rec.line}: expected ${want.join(',') || 'no finding'}, ` +
                    `got ${got.join(',') || 'no finding'}`);
                rec.findings.forEach((f) => report(argv[1], rec, f));
            } else if (want.length === 0) {
                good++;
            }
        }
        console.log(`lint self-test: ${cases} cases (${good} must pass, ${cases - good} must be reported; ` +
            `rules ${[...rules].sort().join(', ')}): ${bad} wrong`);
        return bad ? 1 : 0;
    }
    if (argv[0] === '--counts' && argv.length === 3) {
        const want = new Map();
        for (const line of fs.readFileSync(argv[1], 'utf8').split('\n')) {
            if (line.trim() === '' || line.startsWith('#'))
                continue;
            const m = /^(\S+)\s+(\d+)\s+(\d+)$/.exec(line);
            if (!m) {
                console.log(`${argv[1]}: bad line: ${line}`);
                return 2;
            }
            want.set(m[1], { records: +m[2], statements: +m[3] });
        }
        const files = fs.readdirSync(argv[2]).filter((f) => f.endsWith('.sql')).sort();
        let findings = 0;
        const failed = new Set();
        for (const name of [...new Set([...files.map((f) => f.replace(/\.sql$/, '')), ...want.keys()])].sort()) {
            const w = want.get(name);
            if (!files.includes(name + '.sql')) {
                console.log(`${name}: no dump written (expected ${w.records} records)`);
                failed.add(name);
                continue;
            }
            const file = path.join(argv[2], name + '.sql');
            const { recs, statements } = checkFile(file);
            let nf = 0;
            for (const rec of recs)
                for (const f of rec.findings) {
                    report(file, rec, f);
                    nf++;
                }
            findings += nf;
            const counts = `${recs.length} records, ${statements} statements`;
            if (!w) {
                console.log(`${name}: ${counts}, not in ${path.basename(argv[1])}`);
                failed.add(name);
            } else if (w.records !== recs.length || w.statements !== statements) {
                console.log(`${name}: ${counts}, expected ${w.records} records, ${w.statements} statements`);
                failed.add(name);
            } else {
                console.log(`${name}: ${counts} parsed, ${nf} finding${nf === 1 ? '' : 's'}`);
            }
            if (nf)
                failed.add(name);
        }
        console.log(`T-SQL check: ${findings} finding${findings === 1 ? '' : 's'}, ${failed.size} of ` +
            `${want.size} dumps failed`);
        return failed.size ? 1 : 0;
    }
    console.log('usage: check.js --counts COUNTS DUMPDIR | --self-test FILE');
    return 2;
}

try {
    process.exitCode = main(process.argv.slice(2));
} catch (e) {
    console.log(`check.js: ${e.message}`);
    process.exitCode = 2;
}
