export { formatMoney, formatMoneyExact } from '@shared/money';
