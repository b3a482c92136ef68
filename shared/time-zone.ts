// The company's time zone: Madrid's. The site shows times and counts days in it whatever the
// server's or the reader's zone (so that the server's render and the browser's agree): the
// profile's and a project's times, the audit log, the PDF reports, the calendar's days, and the
// default of JOBS_TIME_ZONE (the digest's hour, the reminders' "today", "due soon").
export const COMPANY_TIME_ZONE = 'Europe/Madrid';
