import Testing

@testable import NowFlow

/// What `validate` reports about the new operators and functions from the types it can infer, with positions.
@Suite struct FunctionTypeCheckTests {
    private func diagnostics(_ text: String) -> String {
        do {
            _ = try JobFile.parse(text, file: "job.yaml")
            return "valid"
        } catch {
            return error.description
        }
    }

    @Test func everyFunctionsTypeErrors() {
        let text = """
            name: Function types
            vars:
              n: 2
              word: abc
              items: [a, b]
              flag: true
            steps:
              - id: open
                query: { table: incident, limit: 1 }
              - set:
                  a: "${lower(vars.n)}"
                  b: "${upper(['x'])}"
                  c: "${trim(steps.open.count)}"
                  d: "${split(['x'], ',')}"
                  e: "${join(vars.word, ',')}"
                  f: "${replace(vars.word, 'a', vars.n)}"
                  g: "${format(vars.n)}"
                  h: "${format('{} and {}', vars.word)}"
                  i: "${count(vars.word)}"
                  j: "${first(steps.open.count)}"
                  k: "${last(vars.flag)}"
                  l: "${sum(vars.word)}"
                  m: "${min(vars.n)}"
                  o: "${max(vars.n, ['x'])}"
                  p: "${pluck(vars.word, 'name')}"
                  q: "${date(vars.n)}"
                  r: "${date('next week')}"
                  s: "${days(vars.flag)}"
                  t: "${hours('soon')}"
                  u: "${minutes(vars.flag)}"
                  v: "${format_date(vars.n, 'yyyy')}"
                  w: "${format_date(now(), vars.n)}"
                  x: "${split(vars.word, '')}"
                  y: "${pluck(steps.open.records, 'a..b')}"
                  z: "${format('{', 1)}"
            """
        #expect(
            diagnostics(text) == """
                job.yaml:11:19: error: lower() needs a string, not a number
                job.yaml:12:10: error: upper() needs a string, not an array
                job.yaml:13:18: error: trim() needs a string, not a number
                job.yaml:14:10: error: split() needs a string first, not an array
                job.yaml:15:18: error: join() needs an array first, not a string
                job.yaml:16:37: error: replace() needs a string as argument 3, not a number
                job.yaml:17:20: error: format() needs a string first, not a number
                job.yaml:18:13: error: format(): '{} and {}' has 2 placeholders for 1 value
                job.yaml:19:19: error: count() needs an array, not a string
                job.yaml:20:19: error: first() needs an array, not a number
                job.yaml:21:18: error: last() needs an array, not a boolean
                job.yaml:22:17: error: sum() needs an array, not a string
                job.yaml:23:17: error: min() needs an array first, not a number
                job.yaml:24:10: error: max() needs a number, a text, a date or a duration as argument 2, not an array
                job.yaml:25:19: error: pluck() needs an array first, not a string
                job.yaml:26:18: error: date() needs a date, not a number
                job.yaml:27:13: error: date(): 'next week' is not a date; write yyyy-MM-dd HH:mm:ss or yyyy-MM-dd (UTC)
                job.yaml:28:18: error: days() needs a number, not a boolean
                job.yaml:29:13: error: hours(): 'soon' is not a number
                job.yaml:30:21: error: minutes() needs a number, not a boolean
                job.yaml:31:25: error: format_date() needs a date first, not a number
                job.yaml:32:32: error: format_date() needs a string as argument 2, not a number
                job.yaml:33:13: error: split(): the separator is empty
                job.yaml:34:13: error: pluck(): 'a..b' is not a field name or dot path
                job.yaml:35:13: error: format(): '{' has a '{' or '}' that is not part of {}; write {{ or }}
                """)
    }

    @Test func operatorTypeErrors() {
        let text = """
            name: Operator types
            vars: { n: 2, word: abc, items: [a, b], flag: true }
            steps:
              - set:
                  a: "${'Count: ' + vars.n}"
                  b: "${['x'] + vars.word}"
                  c: "${vars.flag + 1}"
                  d: "${now() + 5}"
                  e: "${now() + now()}"
                  f: "${'abc' - days(1)}"
                  g: "${vars.n - now()}"
                  h: "${'x' in vars.n}"
              - assert: "now() > 5"
              - assert: "days(1) == 86400"
              - assert: "now() < 'soon'"
              - assert: "now() + days(1)"
            """
        #expect(
            diagnostics(text) == """
                job.yaml:5:10: error: '+' cannot add a number to 'Count: '; use format('{}{}', a, b) to join a text and a number
                job.yaml:6:10: error: '+' cannot add a string to an array
                job.yaml:7:13: error: '+' cannot add a boolean; it works on numbers, texts, lists, dates and durations
                job.yaml:8:13: error: '+' cannot add a number to a date
                job.yaml:9:13: error: '+' cannot add a date to a date
                job.yaml:10:10: error: '-' cannot subtract a duration from 'abc'
                job.yaml:11:13: error: '-' cannot subtract a date from a number
                job.yaml:12:20: error: 'in' looks in a string, an array or an object, not a number
                job.yaml:13:14: error: '>' cannot compare a date with a number
                job.yaml:14:14: error: '==' compares a duration with a number: it is always false
                job.yaml:15:14: error: '<' cannot compare a date with 'soon', which is not a date
                job.yaml:16:13: error: assert: the condition gives a date, not true or false
                """)
    }

    @Test func wellTypedUsesAreValid() {
        let text = """
            name: Fine
            vars: { first: Abel, last: Tuter, days_old: 7, groups: [a, b] }
            steps:
              - id: open
                query: { table: incident, query: "opened_at<${now() - days(vars.days_old)}", limit: 5 }
              - set:
                  full: "${vars.first + ' ' + vars.last}"
                  label: "${format('{} of {}', steps.open.count, len(vars.groups))}"
                  numbers: "${join(pluck(steps.open.records, 'number'), ', ')}"
                  total: "${sum(pluck(steps.open.records, 'reassignment_count')) + 1}"
                  stamp: "${format_date(today() - days(1), 'yyyy-MM-dd')}"
                  oldest: "${min(pluck(steps.open.records, 'opened_at'))}"
              - assert: "'a' in vars.groups && steps.open.count in [0, 1, 2, 3, 4, 5]"
              - assert: "first(steps.open.records) == null || date(steps.open.records.0.opened_at) < now()"
              - assert: "steps.open.count == 0 || steps.open.records.0.opened_at < now() - days(vars.days_old)"
              - assert: "now() - days(1) < now() && days(2) > hours(47)"
            """
        #expect(diagnostics(text) == "valid")
    }
}
