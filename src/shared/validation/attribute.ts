/** A field path as Laravel's messages name it: `secondary_contacts.0` reads "secondary contacts.0". */
export const attribute = (path: string) => path.replace(/_/g, ' ');
