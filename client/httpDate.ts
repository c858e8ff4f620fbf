/**
 * Strict reading of an HTTP date (RFC 9110, section 5.6.7), as a server sends it in `Retry-After`.
 * `Date.parse` is no judge of that: it guesses a date from almost anything (`"foo 12"` is December 2001,
 * `"x 1"` January 2001), so a garbled header would read as a date long past, "retry now". Only the three
 * forms the RFC defines are accepted, with every field in range; the weekday is not checked (it says
 * nothing the date does not).
 */

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const DAY = "(?:mon|tue|wed|thu|fri|sat|sun)";
const LONG_DAY = "(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)";
const MONTH = "(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)";
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";

/** `Sun, 06 Nov 1994 08:49:37 GMT`, the form servers must send. */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`, "i");
/** `Sunday, 06-Nov-94 08:49:37 GMT`, obsolete, with a two-digit year. */
const RFC850_DATE = new RegExp(`^${LONG_DAY}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`, "i");
/** `Sun Nov  6 08:49:37 1994`, C's asctime(), obsolete. */
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} (\\d{2}| ?\\d) ${TIME} (\\d{4})$`, "i");

/** The date in ms since the epoch, or undefined when `text` is not an HTTP date. `now` places two-digit years. */
export function parseHttpDate(text: string, now: number): number | undefined {
  let match = IMF_FIXDATE.exec(text);
  if (match) return utc(Number(match[3]), match[2], match[1], match.slice(4, 7));
  match = RFC850_DATE.exec(text);
  if (match) return utc(fullYear(Number(match[3]), now), match[2], match[1], match.slice(4, 7));
  match = ASCTIME_DATE.exec(text);
  if (match) return utc(Number(match[6]), match[1], match[2], match.slice(3, 6));
  return undefined;
}

/** A date from its fields, or undefined when one is out of range (31 February, 24:00:00). */
function utc(year: number, monthName: string, dayText: string, time: string[]): number | undefined {
  const month = MONTHS.indexOf(monthName.toLowerCase());
  const day = Number(dayText.trim());
  const [hours, minutes, seconds] = time.map(Number);
  // 60 seconds: a leap second, as the RFC's grammar allows.
  if (hours > 23 || minutes > 59 || seconds > 60) return undefined;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: that one reads the years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month, day);
  if (date.getUTCMonth() !== month || date.getUTCDate() !== day) return undefined;
  date.setUTCHours(hours, minutes, seconds);
  return date.getTime();
}

/**
 * RFC 9110: a two-digit year that would be more than 50 years in the future means the most recent past
 * year with the same last two digits.
 */
function fullYear(twoDigits: number, now: number): number {
  const current = new Date(now).getUTCFullYear();
  const year = current - (current % 100) + twoDigits;
  if (year > current + 50) return year - 100;
  if (year <= current - 50) return year + 100;
  return year;
}
