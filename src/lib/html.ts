/** Text made safe inside HTML, attribute values included: & < > " ' as numeric references. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
