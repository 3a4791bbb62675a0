/// The web views' one stylesheet, served at `/web/style.css` from the binary: readable from 360 px wide up, with
/// visible keyboard focus.
enum WebStylesheet {
    static let css = """
        :root { --ink: #1d2b36; --muted: #5b6b78; --line: #d5dde3; --accent: #1f6f8b; --bg: #f6f8f9; \
        --chip: #e3eef2; --error: #a4262c; --ok: #2e7d32; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); \
        background: var(--bg); }
        a { color: var(--accent); }
        a:focus, button:focus, input:focus, select:focus, textarea:focus { outline: 3px solid #f0a500; outline-offset: 1px; }
        .skip { position: absolute; left: -9999px; }
        .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px 8px; z-index: 2; }
        .hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 8px 16px; \
        background: #1d2b36; color: #fff; }
        header a { color: #fff; }
        header .brand { font-weight: 700; text-decoration: none; font-size: 17px; }
        header nav { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; margin-left: auto; }
        header .user { color: #c9d6df; }
        header form { margin: 0; }
        header input[type=search] { width: 14em; max-width: 100%; }
        main { padding: 16px; max-width: 1400px; }
        h1 { font-size: 22px; margin: 4px 0 12px; }
        h2 { font-size: 18px; margin: 20px 0 8px; }
        input, select, textarea, button { font: inherit; padding: 5px 8px; border: 1px solid var(--line); \
        border-radius: 4px; background: #fff; color: var(--ink); max-width: 100%; }
        button { background: var(--accent); color: #fff; border-color: var(--accent); cursor: pointer; }
        button.danger { background: var(--error); border-color: var(--error); }
        button.plain, header button { background: transparent; color: inherit; border-color: currentColor; }
        textarea { width: 100%; min-height: 5em; }
        .scroll { overflow-x: auto; background: #fff; border: 1px solid var(--line); border-radius: 4px; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 6px 10px; border-bottom: 1px solid var(--line); vertical-align: top; }
        th { background: #eef2f4; white-space: nowrap; }
        th a { text-decoration: none; color: var(--ink); }
        tr:last-child td { border-bottom: 0; }
        td.number { text-align: right; }
        .chips { display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0; padding: 0; list-style: none; }
        .chip { display: inline-flex; align-items: center; gap: 6px; background: var(--chip); border-radius: 14px; \
        padding: 2px 4px 2px 10px; }
        .chip a { text-decoration: none; font-weight: 700; padding: 0 6px; }
        .chip .join { color: var(--muted); font-size: 13px; }
        .chip.invalid { background: #fbe9e9; }
        .chip .note { color: var(--error); font-size: 13px; }
        .form-header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 0 16px; }
        .form-header .actions { margin: 4px 0 12px; }
        .query { display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0; }
        .query input[type=text] { flex: 1 1 20em; font-family: ui-monospace, monospace; }
        .add { display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0; }
        .pager { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin: 10px 0; }
        .count { color: var(--muted); }
        .muted, .type { color: var(--muted); font-size: 13px; }
        .error { color: var(--error); font-weight: 600; }
        .ok { color: var(--ok); font-weight: 600; }
        .fields { display: grid; grid-template-columns: minmax(10em, 16em) 1fr; gap: 10px 16px; background: #fff; \
        border: 1px solid var(--line); border-radius: 4px; padding: 12px; }
        .fields > label, .fields > .label { font-weight: 600; }
        .form-section { margin: 0 0 14px; }
        .form-section h2 { margin-top: 4px; }
        .columns { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
        .columns + .fields { margin-top: 12px; }
        details.form-section summary { cursor: pointer; font-weight: 600; margin-bottom: 8px; }
        .fields .value { display: flex; flex-direction: column; gap: 2px; min-width: 0; word-break: break-word; }
        .fields .value input[type=text] { width: 100%; }
        .actions { display: flex; flex-wrap: wrap; gap: 10px; margin: 14px 0; align-items: center; }
        .journal { margin: 0; padding-left: 1.2em; }
        .groups { display: grid; grid-template-columns: repeat(auto-fill, minmax(17em, 1fr)); gap: 12px; }
        .groups section { background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: 8px 12px; }
        .groups h2 { margin-top: 4px; }
        .groups ul { list-style: none; margin: 0; padding: 0; }
        .groups li { display: flex; justify-content: space-between; gap: 8px; padding: 2px 0; }
        .login { max-width: 22em; background: #fff; border: 1px solid var(--line); border-radius: 4px; padding: 16px; }
        .login label { display: block; margin-top: 10px; font-weight: 600; }
        .login input { width: 100%; }
        .login button { margin-top: 14px; }
        time { white-space: nowrap; }
        @media (max-width: 600px) {
          main { padding: 10px; }
          .fields { grid-template-columns: 1fr; gap: 4px; }
          .columns { grid-template-columns: 1fr; }
          .fields .value { margin-bottom: 10px; }
          header nav { margin-left: 0; }
          th, td { padding: 5px 6px; }
        }

        """
}
