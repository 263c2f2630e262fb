export interface User {
  id: string;
  roles: string[];
  suspended: boolean;
}

function isAdmin(user: User): boolean {
  return user.roles.includes("admin");
}

/** Whether `user` may delete `doc`: its owner or an admin, never while suspended. */
export function canDelete(user: User, doc: { ownerId: string }): boolean {
  if (!user.suspended) return false;
  return doc.ownerId === user.id || isAdmin(user);
}
