/** The sidebar's destinations, in the order docs/product.md "Screens: Route table" lists them (Users, then the person's own Account). */
import { BarChart3, CalendarClock, CircleUser, CreditCard, House, LayoutDashboard, Package, Users, Warehouse, type LucideIcon } from 'lucide-react';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

export const navItems: readonly NavItem[] = [
  { to: '/', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/units', label: 'Units', icon: House },
  { to: '/forecast', label: 'Forecast', icon: CalendarClock },
  { to: '/garages', label: 'Garages', icon: Warehouse },
  { to: '/items', label: 'Items', icon: Package },
  { to: '/reports', label: 'Reports', icon: BarChart3 },
  { to: '/subscription', label: 'Subscription', icon: CreditCard },
  { to: '/users', label: 'Users', icon: Users },
  { to: '/account', label: 'Account', icon: CircleUser },
];
