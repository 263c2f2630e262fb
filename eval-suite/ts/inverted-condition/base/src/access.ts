export interface User {
  id: string;
  roles: string[];
  suspended: boolean;
}

/** Whether `user` may delete `doc`: its owner or an admin, never while suspended. */
export function canDelete(user: User, doc: { ownerId: string }): boolean {
  if (user.suspended) return false;
  return doc.ownerId === user.id || user.roles.includes("admin");
}
