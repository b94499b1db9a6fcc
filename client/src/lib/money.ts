export { formatMoney, formatMoneyExact } from '../../../src/shared/money';
